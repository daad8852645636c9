// The sysfs source reading hw_counters/ through RDMA netlink and counters/ through the local PMA
// (injected: a fake kernel built from the fixture's own files, a PMA answering the fixture's
// values), against the same source reading every file: the same counters, names, widths and
// values, whichever way they came, and the method in the status and figures.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "collector/sources/mad/local_pma_reader.hpp"
#include "collector/sources/netlink/hw_counter_reader.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/collector/sources/mad/answering_transport.hpp"
#include "tests/collector/sources/mad/pma_answers.hpp"
#include "tests/collector/sources/netlink/fake_rdma_netlink.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;

using std::chrono::seconds;

const std::string kPort1 = "/class/infiniband/mlx5_0/ports/1";

// Every read goes to the files; the paths read are kept.
class CountingReader final : public SysfsReader {
public:
    explicit CountingReader(std::multiset<std::string>* read) : read_(read) {}
    Result<size_t> read_file(const std::string& path, char* buf, size_t size) override {
        read_->insert(path);
        return real_.read_file(path, buf, size);
    }
    Result<std::vector<std::string>> list_dir(const std::string& path) override {
        return real_.list_dir(path);
    }

private:
    std::multiset<std::string>* read_;
    PosixSysfsReader real_;
};

size_t reads_under(const std::multiset<std::string>& read, const std::string& folder) {
    size_t n = 0;
    for (const auto& p : read) n += p.find(folder) != std::string::npos;
    return n;
}

std::vector<CounterSample> counters(const std::vector<Observation>& obs) {
    std::vector<CounterSample> out;
    for (const auto& o : obs) {
        if (auto* c = std::get_if<CounterSample>(&o.body)) out.push_back(*c);
    }
    return out;
}

SourceStatus status(const std::vector<Observation>& obs) {
    std::vector<SourceStatus> all;
    for (const auto& o : obs) {
        if (auto* s = std::get_if<SourceStatus>(&o.body)) all.push_back(*s);
    }
    EXPECT_EQ(all.size(), 1u);
    return all.empty() ? SourceStatus{} : all.front();
}

// The source over `root`, reading every file.
std::vector<Observation> files_only(const std::string& root) {
    sources::SourceSettings s;
    s.sysfs_root = root;
    SysfsSource src(s, std::make_unique<PosixSysfsReader>());
    sources::VectorSink sink;
    src.sample_all(TimePoint{seconds(1)}, sink);
    return sink.observations;
}

// A fake kernel whose statistics for mlx5_0 port 1 are the fixture's hw_counters/ files, in
// another order, with one counter missing (read from its file) and an optional counter sysfs
// does not show (left out).
struct NetlinkBed {
    test::FakeRdmaNetlink kernel;
    bool open_fails = false;
    std::multiset<std::string> read;
    std::unique_ptr<SysfsSource> src;

    explicit NetlinkBed(const std::string& root) {
        std::vector<netlink::NlCounter> stats;
        for (const auto& [name, v] : files_of(root + kPort1 + "/hw_counters")) {
            if (name == "lifespan" || name == "out_of_buffer") continue;
            stats.insert(stats.begin(), {name, v});
        }
        stats.push_back({"np_ecn_marked_roce_packets", 42});
        kernel.devices["mlx5_0"] = {2, {{1, stats}}};
        sources::SourceSettings s;
        s.sysfs_root = root;
        // Every poll reads every counter: these tests are about the methods (the tiers with the
        // methods: counter_methods_tiers_test.cpp).
        s.slow_counter_interval = s.counter_interval;
        CounterReaders readers;
        readers.hw = std::make_unique<netlink::NetlinkHwCounterReader>(
            [this]() -> Result<netlink::NlTransport> {
                if (open_fails) return make_error("RDMA netlink unavailable", EPROTONOSUPPORT);
                return kernel.transport();
            });
        src = std::make_unique<SysfsSource>(s, std::make_unique<CountingReader>(&read),
                                            std::move(readers));
    }
    std::vector<Observation> poll(TimePoint t) {
        sources::VectorSink sink;
        src->poll(t, sink);
        return sink.observations;
    }
};

TEST(SysfsCounterMethods, NetlinkGivesTheCountersTheFilesGive) {
    const std::string root = fixture("mlx5-ib");
    NetlinkBed bed(root);
    auto obs = bed.poll(TimePoint{seconds(1)});
    EXPECT_EQ(counters(obs), counters(files_only(root)));
    EXPECT_EQ(bed.kernel.stat_requests, 1u);
    // Of hw_counters/ only the file the kernel did not answer for was read.
    EXPECT_EQ(reads_under(bed.read, "/hw_counters/"), 1u);
    EXPECT_EQ(bed.read.count(root + kPort1 + "/hw_counters/out_of_buffer"), 1u);
    for (const auto& c : counters(obs)) EXPECT_NE(c.name, "np_ecn_marked_roce_packets");
    const auto st = status(obs);
    EXPECT_TRUE(st.up);
    EXPECT_EQ(st.reason, "hw_counters/ by netlink on 1 of 1 port");
    EXPECT_EQ(figure(*bed.src, "sysfs_hw_counters_netlink_ports"), 1);
    EXPECT_EQ(figure(*bed.src, "sysfs_hw_counters_file_ports"), 0);
}

TEST(SysfsCounterMethods, WithoutRdmaNetlinkEveryFileIsReadAndTheStatusSaysWhy) {
    const std::string root = fixture("mlx5-ib");
    NetlinkBed bed(root);
    bed.open_fails = true;
    auto obs = bed.poll(TimePoint{seconds(1)});
    EXPECT_EQ(counters(obs), counters(files_only(root)));
    EXPECT_EQ(reads_under(bed.read, "/hw_counters/"),
              files_of(root + kPort1 + "/hw_counters").size() - 1)
        << "every file but lifespan";
    EXPECT_EQ(status(obs).reason,
              "hw_counters/ by netlink on 0 of 1 port (files: mlx5_0:1: RDMA netlink unavailable)");
    EXPECT_EQ(figure(*bed.src, "sysfs_hw_counters_netlink_ports"), 0);
    EXPECT_EQ(figure(*bed.src, "sysfs_hw_counters_file_ports"), 1);
}

// The kernel stops answering for the port (EINVAL) mid-run: the files take over with the same
// values, so no total moves; at the slow cadence netlink is asked again.
TEST(SysfsCounterMethods, APortThatChangesMethodKeepsItsValues) {
    const std::string root = fixture("mlx5-ib");
    NetlinkBed bed(root);
    const auto by_netlink = counters(bed.poll(TimePoint{seconds(0)}));
    auto stats = bed.kernel.devices["mlx5_0"].ports[1];
    bed.kernel.devices["mlx5_0"].ports.clear();
    auto obs = bed.poll(TimePoint{seconds(1)});
    EXPECT_EQ(counters(obs), by_netlink);
    EXPECT_NE(status(obs).reason.find("files: mlx5_0:1: RDMA netlink statistics"),
              std::string::npos)
        << status(obs).reason;
    const unsigned asked = bed.kernel.stat_requests;
    EXPECT_EQ(counters(bed.poll(TimePoint{seconds(2)})), by_netlink);
    EXPECT_EQ(bed.kernel.stat_requests, asked) << "files until the slow cadence";
    bed.kernel.devices["mlx5_0"].ports[1] = stats;
    bed.read.clear();
    obs = bed.poll(TimePoint{seconds(10)});  // the P_Key cadence: netlink is tried again
    EXPECT_EQ(counters(obs), by_netlink);
    EXPECT_EQ(status(obs).reason, "hw_counters/ by netlink on 1 of 1 port");
    EXPECT_EQ(reads_under(bed.read, "/hw_counters/"), 1u);
}

// A PMA whose counters are the fixture's counters/ files; the port's LID is the fixture's (0x1a).
struct PmaBed {
    mad::test::PmaPort pma;
    mad::test::AnsweringTransport* transport = nullptr;
    std::multiset<std::string> read;
    std::unique_ptr<SysfsSource> src;

    explicit PmaBed(const std::string& root) {
        for (const auto& [name, v] : files_of(root + kPort1 + "/counters")) pma.values[name] = v;
        sources::SourceSettings s;
        s.sysfs_root = root;
        CounterReaders readers;
        readers.pma = std::make_unique<mad::LocalPmaReader>(
            [this](const std::string&, uint32_t) -> Result<std::unique_ptr<mad::MadTransport>> {
                auto t = std::make_unique<mad::test::AnsweringTransport>();
                t->answer = [this](mad::Bytes req) { return pma.answer(req); };
                transport = t.get();
                return std::unique_ptr<mad::MadTransport>(std::move(t));
            });
        src = std::make_unique<SysfsSource>(s, std::make_unique<CountingReader>(&read),
                                            std::move(readers));
    }
};

TEST(SysfsCounterMethods, LocalPmaGivesTheCountersTheFilesGive) {
    const std::string root = fixture("mlx5-ib");
    PmaBed bed(root);
    sources::VectorSink sink;
    bed.src->sample_all(TimePoint{seconds(1)}, sink);
    EXPECT_EQ(counters(sink.observations), counters(files_only(root)));
    EXPECT_EQ(reads_under(bed.read, "/counters/"), 0u) << "no counters/ file read";
    EXPECT_EQ(bed.pma.asked, 3u);
    EXPECT_EQ(bed.pma.port_select, 1);
    for (const auto& to : bed.transport->sent_to) {
        EXPECT_EQ(to.dlid, 0x1a) << "the port's own LID, from its lid file";
        EXPECT_EQ(to.qpn, 1u);
    }
    EXPECT_EQ(status(sink.observations).reason, "counters/ by mad on 1 of 1 port");
    EXPECT_EQ(figure(*bed.src, "sysfs_counters_mad_ports"), 1);
    EXPECT_EQ(figure(*bed.src, "sysfs_counters_file_ports"), 0);
}

// rxe has no counters/ (and is RoCE): the PMA reader has nothing to say there, netlink has.
TEST(SysfsCounterMethods, RoCEPortWithoutCountersFolderIsNotCounted) {
    const std::string root = fixture("rxe-roce");
    test::FakeRdmaNetlink kernel;
    std::vector<netlink::NlCounter> stats;
    for (const auto& [name, v] : files_of(root + "/class/infiniband/rxe0/ports/1/hw_counters")) {
        if (name != "lifespan") stats.push_back({name, v});
    }
    kernel.devices["rxe0"] = {0, {{1, stats}}};
    bool pma_opened = false;
    CounterReaders readers;
    readers.hw = std::make_unique<netlink::NetlinkHwCounterReader>(
        [&]() -> Result<netlink::NlTransport> { return kernel.transport(); });
    readers.pma = std::make_unique<mad::LocalPmaReader>(
        [&](const std::string&, uint32_t) -> Result<std::unique_ptr<mad::MadTransport>> {
            pma_opened = true;
            return make_error("not expected", EINVAL);
        });
    sources::SourceSettings s;
    s.sysfs_root = root;
    SysfsSource src(s, std::make_unique<PosixSysfsReader>(), std::move(readers));
    sources::VectorSink sink;
    src.sample_all(TimePoint{seconds(1)}, sink);
    EXPECT_EQ(counters(sink.observations), counters(files_only(root)));
    EXPECT_FALSE(pma_opened);
    EXPECT_EQ(status(sink.observations).reason, "hw_counters/ by netlink on 1 of 1 port");
    EXPECT_EQ(figure(src, "sysfs_counters_mad_ports"), 0);
    EXPECT_EQ(figure(src, "sysfs_counters_file_ports"), 0);
}

TEST(SysfsCounterMethods, WithoutReadersNothingChanges) {
    auto obs = files_only(fixture("mlx5-ib"));
    EXPECT_EQ(status(obs).reason, "");
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx5-ib");
    SysfsSource src(s, std::make_unique<PosixSysfsReader>());
    // No method figures; only how many ports' counters the kernel says are not available and
    // how many ports' narrow counters are read fast from their files.
    auto figures = src.figures();
    ASSERT_EQ(figures.size(), 2u);
    EXPECT_EQ(figures[0].name, "sysfs_counters_unavailable_ports");
    EXPECT_EQ(figures[1].name, "sysfs_narrow_fast_ports");
}

TEST(SysfsCounterMethods, OptionChoosesAndFixtureTreesAreReadFromFiles) {
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx5-ib");
    EXPECT_FALSE(counter_methods_wanted(with_sysfs_options(s)))
        << "a tree that is not a mounted sysfs is read from its files";
    s.sysfs_root = "/sys";
    EXPECT_EQ(counter_methods_wanted(with_sysfs_options(s)), is_mounted_sysfs("/sys"));
    s.extra["sysfs.counters"] = "files";
    EXPECT_FALSE(counter_methods_wanted(with_sysfs_options(s)));
    s.extra["sysfs.counters"] = "netlink";
    auto bad = sources::resolve_source_options("sysfs", sysfs_options(), s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "sysfs source: sysfs.counters must be auto or files, not 'netlink'");
}

}  // namespace
}  // namespace rdmadiag::sysfs
