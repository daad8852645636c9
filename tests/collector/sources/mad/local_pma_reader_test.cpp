// The local PMA counter reader: counters/ values out of PortCounters and PortCountersExtended as
// the kernel's sysfs picks them for each ClassPortInfo, two MADs a port, and every way it leaves
// a port to the files.

#include "collector/sources/mad/local_pma_reader.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <map>

#include "tests/collector/sources/mad/answering_transport.hpp"
#include "tests/collector/sources/mad/pma_answers.hpp"

namespace rdmadiag::mad {
namespace {

using sources::PortFacts;

// Every counters/ file of an extended PMA, with values that only fit their own field.
std::map<std::string, uint64_t> extended_values() {
    return {{"symbol_error", 65535},
            {"link_error_recovery", 3},
            {"link_downed", 1},
            {"port_rcv_errors", 4},
            {"port_rcv_remote_physical_errors", 5},
            {"port_rcv_switch_relay_errors", 6},
            {"port_xmit_discards", 7},
            {"port_xmit_constraint_errors", 2},
            {"port_rcv_constraint_errors", 255},
            {"local_link_integrity_errors", 9},
            {"excessive_buffer_overrun_errors", 15},
            {"VL15_dropped", 300},
            {"port_xmit_wait", 1048576},
            {"port_xmit_data", ~0ull},
            {"port_rcv_data", 9876543210},
            {"port_xmit_packets", 123456789},
            {"port_rcv_packets", 5000000000},
            {"unicast_xmit_packets", 123450000},
            {"unicast_rcv_packets", 123440000},
            {"multicast_xmit_packets", 6789},
            {"multicast_rcv_packets", 16000}};
}

std::map<std::string, uint64_t> as_map(const std::vector<sources::CounterValue>& values) {
    std::map<std::string, uint64_t> out;
    for (const auto& v : values) {
        EXPECT_FALSE(out.contains(v.name)) << "twice: " << v.name;
        out[v.name] = v.value;
    }
    return out;
}

const PortFacts kActive{PortState::active, LinkLayer::infiniband, 0x1a};
constexpr auto kAll = sources::CounterTiers::all();

struct PmaBed {
    test::AnsweringTransport* transport = nullptr;  // owned by the reader once opened
    test::PmaPort pma;
    unsigned opens = 0;
    bool open_fails = false;
    bool lose = false;
    LocalPmaReader reader{
        [this](const std::string&, uint32_t) -> Result<std::unique_ptr<MadTransport>> {
            ++opens;
            if (open_fails) return make_error("umad_open_port failed: Permission denied", EACCES);
            auto t = std::make_unique<test::AnsweringTransport>();
            t->answer = [this](Bytes req) -> std::optional<std::vector<uint8_t>> {
                if (lose) return std::nullopt;
                return pma.answer(req);
            };
            transport = t.get();
            return std::unique_ptr<MadTransport>(std::move(t));
        },
        LocalPmaReader::Options{
            .engine = {.timeout = std::chrono::milliseconds(100), .retries = 1}, .clock = [this] {
                return transport ? transport->now : std::chrono::steady_clock::time_point{};
            }}};
};

TEST(LocalPmaReader, ExtendedPmaGivesEveryFileItsValue) {
    PmaBed bed;
    bed.pma.values = extended_values();
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(as_map(*r), extended_values());
    EXPECT_EQ(bed.pma.asked, 3u) << "ClassPortInfo once, PortCounters, PortCountersExtended";
    EXPECT_EQ(bed.pma.port_select, 1);
    for (const auto& sent : bed.transport->sent) EXPECT_EQ(sent[1], 0x04) << "PMA class";
    for (const auto& to : bed.transport->sent_to) EXPECT_EQ(to.dlid, 0x1a) << "its own LID";
    // Every later read is the two counter MADs.
    bed.pma.values["port_rcv_constraint_errors"] = 0;
    auto again = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(as_map(*again).at("port_rcv_constraint_errors"), 0u);
    EXPECT_EQ(bed.pma.asked, 5u);
    EXPECT_EQ(bed.opens, 1u);
}

// CapabilityMask bit 10 without bit 9: the kernel shows the 64-bit data and packet counters and
// no unicast/multicast files.
TEST(LocalPmaReader, NoIetfPmaHasNoUnicastOrMulticast) {
    PmaBed bed;
    bed.pma.values = extended_values();
    bed.pma.capability_mask = kPmaExtendedWidthNoIetf;
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto m = as_map(*r);
    EXPECT_EQ(m.at("port_rcv_packets"), 5000000000u);
    EXPECT_EQ(m.at("port_xmit_data"), ~0ull);
    EXPECT_FALSE(m.contains("unicast_xmit_packets"));
    EXPECT_FALSE(m.contains("multicast_rcv_packets"));
    EXPECT_EQ(m.size(), 17u);
}

// Without PortCountersExtended the files show PortCounters' 32-bit fields, stuck at their
// maximum once they got there.
TEST(LocalPmaReader, PmaWithoutExtendedCountersGivesThe32BitFields) {
    PmaBed bed;
    bed.pma.values = extended_values();
    bed.pma.capability_mask = kPmaXmitWait;
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto m = as_map(*r);
    EXPECT_EQ(m.at("port_xmit_data"), 0xffffffffu);
    EXPECT_EQ(m.at("port_rcv_packets"), 0xffffffffu);
    EXPECT_EQ(m.at("port_xmit_packets"), 123456789u);
    EXPECT_EQ(m.size(), 17u);
    EXPECT_EQ(bed.pma.asked, 2u) << "ClassPortInfo, then PortCounters alone";
}

TEST(LocalPmaReader, ServesActiveInfiniBandPortsWithALidOnly) {
    PmaBed bed;
    bed.pma.values = extended_values();
    EXPECT_FALSE(bed.reader.applies({PortState::active, LinkLayer::ethernet, 0}));
    EXPECT_TRUE(bed.reader.applies(kActive));
    auto roce = bed.reader.read({"mlx5_1", 1}, {PortState::active, LinkLayer::ethernet, 0}, kAll);
    ASSERT_FALSE(roce.ok());
    EXPECT_EQ(roce.error().code, ENOTSUP);
    for (PortFacts f : {PortFacts{PortState::down, LinkLayer::infiniband, 0x1a},
                        PortFacts{PortState::active, LinkLayer::infiniband, 0},
                        PortFacts{PortState::active, LinkLayer::infiniband, 0xc001},
                        PortFacts{std::nullopt, LinkLayer::infiniband, 0x1a}}) {
        auto r = bed.reader.read({"mlx5_0", 1}, f, kAll);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ENETDOWN);
    }
    EXPECT_EQ(bed.opens, 0u) << "no umad port opened for a port it cannot address";
    // Once the port is up it is read at once: not being up was not a failure to remember.
    EXPECT_TRUE(bed.reader.read({"mlx5_0", 1}, kActive, kAll).ok());
}

TEST(LocalPmaReader, UmadPortThatCannotBeOpenedIsLeftToTheFilesUntilRetry) {
    PmaBed bed;
    bed.pma.values = extended_values();
    bed.open_fails = true;
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EACCES);
    EXPECT_NE(r.error().message.find("Permission denied"), std::string::npos);
    EXPECT_FALSE(bed.reader.read({"mlx5_0", 1}, kActive, kAll).ok());
    EXPECT_EQ(bed.opens, 1u);
    bed.open_fails = false;
    bed.reader.retry();
    EXPECT_TRUE(bed.reader.read({"mlx5_0", 1}, kActive, kAll).ok());
    EXPECT_EQ(bed.opens, 2u);
}

TEST(LocalPmaReader, PmaThatDoesNotAnswerIsLeftToTheFilesUntilRetry) {
    PmaBed bed;
    bed.pma.values = extended_values();
    ASSERT_TRUE(bed.reader.read({"mlx5_0", 1}, kActive, kAll).ok());
    bed.lose = true;
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("PortCounters"), std::string::npos) << r.error().message;
    const size_t sent = bed.transport->sent.size();
    EXPECT_FALSE(bed.reader.read({"mlx5_0", 1}, kActive, kAll).ok());
    EXPECT_EQ(bed.transport->sent.size(), sent) << "no MAD before retry()";
    bed.lose = false;
    bed.reader.retry();
    auto again = bed.reader.read({"mlx5_0", 1}, kActive, kAll);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(as_map(*again), extended_values());
}

unsigned sent(const test::AnsweringTransport& t, uint16_t attr_id) {
    unsigned n = 0;
    for (const auto& m : t.sent) n += get16(m, 16) == attr_id;
    return n;
}

// The fast tier is PortCounters' error counters: one MAD, and none of the counters it carries
// that are not due (the 32-bit data counters, port_xmit_wait).
TEST(LocalPmaReader, TheFastTierIsOnePortCountersMad) {
    PmaBed bed;
    bed.pma.values = extended_values();
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, {.fast = true, .slow = false});
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto m = as_map(*r);
    EXPECT_EQ(m.size(), 12u);
    for (const auto& [name, v] : m) {
        EXPECT_EQ(sources::counter_tier(CounterKind::pma, name), sources::CounterTier::fast)
            << name;
        EXPECT_EQ(v, extended_values().at(name)) << name;
    }
    EXPECT_EQ(sent(*bed.transport, attr::port_counters), 1u);
    EXPECT_EQ(sent(*bed.transport, attr::port_counters_ext), 0u);
}

// The slow tier needs both: the data and packet counters from PortCountersExtended (64 bits),
// port_xmit_wait from PortCounters.
TEST(LocalPmaReader, TheSlowTierNeedsBothAttributesOfAnExtendedPma) {
    PmaBed bed;
    bed.pma.values = extended_values();
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, {.fast = false, .slow = true});
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto m = as_map(*r);
    EXPECT_EQ(m.size(), 9u);
    EXPECT_EQ(m.at("port_xmit_wait"), 1048576u);
    EXPECT_EQ(m.at("port_xmit_data"), ~0ull);
    EXPECT_FALSE(m.contains("symbol_error"));
    for (const auto& v : *r) {
        EXPECT_EQ(v.width, v.name == "port_xmit_wait" ? 32 : 64) << v.name;
    }
    EXPECT_EQ(sent(*bed.transport, attr::port_counters), 1u);
    EXPECT_EQ(sent(*bed.transport, attr::port_counters_ext), 1u);
}

// Without the extended width everything is in PortCounters: the slow tier is one MAD too, and
// its data counters say they are 32 bits wide.
TEST(LocalPmaReader, ThePmaWithoutExtendedWidthIsOneMadForEitherTier) {
    PmaBed bed;
    bed.pma.values = extended_values();
    bed.pma.capability_mask = kPmaXmitWait;
    auto r = bed.reader.read({"mlx5_0", 1}, kActive, {.fast = false, .slow = true});
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto m = as_map(*r);
    EXPECT_EQ(m.size(), 5u) << "four data and packet counters and port_xmit_wait";
    for (const auto& v : *r) EXPECT_EQ(v.width, 32) << v.name;
    EXPECT_EQ(m.at("port_xmit_data"), 0xffffffffu);
    EXPECT_EQ(sent(*bed.transport, attr::port_counters), 1u);
    EXPECT_EQ(sent(*bed.transport, attr::port_counters_ext), 0u);
    const auto none =
        sysfs_pma_attributes(PmaClassPortInfo{.capability_mask = kPmaExtendedWidth}, {});
    EXPECT_FALSE(none.port_counters || none.port_counters_ext) << "no tier due: no MAD";
}

TEST(LocalPmaReader, SysfsValuesRefuseShortAttributes) {
    std::vector<uint8_t> pc(192, 0);
    PmaClassPortInfo ext{.capability_mask = kPmaExtendedWidth};
    EXPECT_FALSE(sysfs_pma_values(ext, pc, std::nullopt).ok()) << "extended PMA, no extended data";
    EXPECT_FALSE(sysfs_pma_values({}, Bytes(pc).first(20), std::nullopt).ok());
    EXPECT_FALSE(sysfs_pma_values(ext, pc, Bytes(pc).first(40)).ok());
    EXPECT_TRUE(sysfs_pma_values(ext, pc, Bytes(pc)).ok());
    // An attribute holding no due counter need not be given.
    EXPECT_TRUE(sysfs_pma_values(ext, pc, std::nullopt, {.fast = true, .slow = false}).ok());
    EXPECT_FALSE(sysfs_pma_values(ext, std::nullopt, pc, {.fast = true, .slow = false}).ok());
}

}  // namespace
}  // namespace rdmadiag::mad
