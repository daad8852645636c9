#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collector/sources/partitions_conf/partitions_options.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::partitions_conf {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ConfFile : public ::testing::Test {
protected:
    void write(const std::string& text) { std::ofstream(path_, std::ios::trunc) << text; }
    std::vector<Observation> poll(PartitionsConfSource& source, int second) {
        sources::VectorSink sink;
        source.poll(TimePoint{std::chrono::seconds(second)}, sink);
        return std::move(sink.observations);
    }

    test::TempDir tmp_{"partitions"};
    fs::path dir_ = tmp_.path();
    std::string path_ = tmp_.file("partitions.conf");
};

TEST_F(ConfFile, ReadAtTheFirstPollAndAgainOnlyWhenTheFileChanges) {
    write("Default=0x7fff : ALL=full ;\n");
    PartitionsConfSource source(path_, 0x1234, 10s);
    auto first = poll(source, 0);
    ASSERT_EQ(first.size(), 1u);
    const auto* text = std::get_if<PartitionsConfText>(&first[0].body);
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(text->path, path_);
    EXPECT_EQ(text->text, "Default=0x7fff : ALL=full ;\n");
    EXPECT_EQ(text->sm_port_guid, 0x1234u);
    EXPECT_EQ(first[0].source, "partitions");

    for (int t = 10; t <= 60; t += 10) EXPECT_TRUE(poll(source, t).empty());
    EXPECT_EQ(source.reads(), 1u) << "an unchanged file is looked at, not read";

    // Rewritten with the same size: its modification time tells.
    write("Default=0x7fff : ALL=lim  ;\n");
    fs::last_write_time(path_, fs::last_write_time(path_) + 2s);
    auto edited = poll(source, 70);
    ASSERT_EQ(edited.size(), 1u);
    EXPECT_EQ(std::get<PartitionsConfText>(edited[0].body).text, "Default=0x7fff : ALL=lim  ;\n");
    EXPECT_EQ(source.reads(), 2u);

    // Replaced by another file (a new inode), as editors and configuration tools do.
    const std::string next = (dir_ / "next.conf").string();
    std::ofstream(next) << "Default=0x7fff : ALL=lim  ;\n";
    fs::last_write_time(next, fs::last_write_time(path_));
    fs::rename(next, path_);
    EXPECT_EQ(poll(source, 80).size(), 1u);
}

TEST_F(ConfFile, AnUnreadableFileIsDownOnceWithTheReasonUntilItComesBack) {
    PartitionsConfSource source(path_, std::nullopt, 10s);
    auto missing = poll(source, 0);
    ASSERT_EQ(missing.size(), 1u);
    const auto* down = std::get_if<SourceStatus>(&missing[0].body);
    ASSERT_NE(down, nullptr);
    EXPECT_FALSE(down->up);
    EXPECT_EQ(down->reason, "cannot read partitions.conf " + path_ + ": No such file or directory");
    EXPECT_TRUE(poll(source, 10).empty()) << "said once, not every poll";

    fs::create_directories(path_);
    auto dir = poll(source, 20);
    ASSERT_EQ(dir.size(), 1u);
    EXPECT_EQ(std::get<SourceStatus>(dir[0].body).reason,
              "cannot read partitions.conf " + path_ + ": is a directory");
    fs::remove(path_);

    write("Default=0x7fff : ALL=full ;\n");
    auto back = poll(source, 30);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<PartitionsConfText>(back[0].body));
    EXPECT_TRUE(std::get<SourceStatus>(back[1].body).up);

    // Gone and back unchanged: read again, the engine decides whether anything changed.
    fs::rename(path_, path_ + ".away");
    EXPECT_FALSE(std::get<SourceStatus>(poll(source, 40)[0].body).up);
    fs::rename(path_ + ".away", path_);
    EXPECT_EQ(poll(source, 50).size(), 2u);
    EXPECT_EQ(source.reads(), 2u);
}

TEST_F(ConfFile, ItsSettingsComeFromSourceOptions) {
    sources::SourceSettings s;
    s.pkey_interval = 30s;
    auto none = make_partitions_conf_source(s);
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().message, "no partitions.conf given (--partitions.conf FILE)");

    s.extra[kConfOption] = path_;
    s.extra[kSmPortGuidOption] = "0xnope";
    auto bad = sources::resolve_source_options(kSourceName, partitions_options(), s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "partitions source: partitions.sm_port_guid must be a GUID other than 0, not "
              "'0xnope'");

    s.extra[kSmPortGuidOption] = "0x0002c90300001234";
    auto made = make_partitions_conf_source(
        ::rdmadiag::test::resolved(s, kSourceName, partitions_options()));
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_EQ((*made)->name(), "partitions");
    EXPECT_EQ((*made)->poll_interval(), 30s) << "looked at on the P_Key tables' cadence";
    EXPECT_EQ((*made)->playback_length(), Duration::zero());

    const auto entry = partitions_source_entry();
    EXPECT_EQ(entry.name, "partitions");
    EXPECT_FALSE(entry.enabled_by_default);
}

TEST(PartitionsConfGuid, ReadAsTheFileWritesThem) {
    const auto& spec = partitions_options()[1];
    ASSERT_EQ(spec.key, kSmPortGuidOption);
    auto guid = [&](std::string_view text) -> std::optional<uint64_t> {
        auto v = sources::parse_option(spec, text);
        if (!v) return std::nullopt;
        return std::get<uint64_t>(*v);
    };
    EXPECT_EQ(guid("0x0002c90300001234"), 0x0002c90300001234u);
    EXPECT_EQ(guid("4660"), 4660u);
    EXPECT_EQ(guid("010"), 8u);
    EXPECT_EQ(guid("0xffffffffffffffff"), 0xffffffffffffffffu);
    for (const char* bad :
         {"", "0x", "0x1g", "-1", " 1", "1 ", "0x10000000000000000", "guid", "0", "0x0"})
        EXPECT_EQ(guid(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace rdmadiag::partitions_conf
