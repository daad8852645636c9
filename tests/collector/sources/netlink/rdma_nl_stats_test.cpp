// The parser of one port's RDMA netlink statistics (RDMA_NLDEV_CMD_STAT_GET): captured kernel
// bytes, replies built attribute by attribute, and malformed ones.

#include <gtest/gtest.h>

#include <cerrno>
#include <random>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netlink/captured_stats.hpp"
#include "tests/collector/sources/netlink/fake_rdma_netlink.hpp"

namespace rdmadiag::netlink {
namespace {

using test::NlBuilder;

// rxe's counters in the driver's order, as hw_counters/ names them.
const std::vector<std::string> kRxeNames{"sent_pkts",           "rcvd_pkts",
                                         "duplicate_request",   "out_of_seq_request",
                                         "rcvd_rnr_err",        "send_rnr_err",
                                         "rcvd_seq_err",        "ack_deferred",
                                         "retry_exceeded_err",  "retry_rnr_exceeded_err",
                                         "completer_retry_err", "send_err",
                                         "link_downed",         "rdma_sends",
                                         "rdma_recvs"};

std::vector<uint8_t> stats_reply(uint32_t index, const std::string& dev, uint32_t port,
                                 const std::vector<NlCounter>& counters) {
    return test::FakeRdmaNetlink::stats_reply(index, dev, port, counters);
}

TEST(RdmaNlStats, CapturedRxeAnswer) {
    auto s = parse_nl_port_stats(test::from_hex(test::kRxeStats));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->device_index, 0u);
    EXPECT_EQ(s->device, "rxe0");
    EXPECT_EQ(s->port, 1u);
    std::vector<std::string> names;
    for (const auto& c : s->counters) {
        names.push_back(c.name);
        EXPECT_EQ(c.value, 0u) << c.name;
    }
    EXPECT_EQ(names, kRxeNames);
}

TEST(RdmaNlStats, CapturedNoSuchPortKeepsTheKernelsErrno) {
    auto s = parse_nl_port_stats(test::from_hex(test::kRxeNoSuchPort));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EINVAL);
}

TEST(RdmaNlStats, CapturedDeviceDumpNamesTheIndexAndProtocol) {
    auto d = parse_nl_device_dump(test::from_hex(test::kRxeDeviceDump));
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_EQ(d->size(), 1u);
    EXPECT_EQ((*d)[0], (NlDevice{0, "rxe0", "roce"}));
}

TEST(RdmaNlStats, ValuesOfEveryWidth) {
    const std::vector<NlCounter> counters{{"rx_write_requests", 0},
                                          {"out_of_buffer", 1},
                                          {"np_cnp_sent", 0xffffffffu + 2ull},
                                          {"rx_atomic_requests", ~0ull}};
    auto s = parse_nl_port_stats(stats_reply(7, "mlx5_0", 2, counters));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(*s, (NlPortStats{7, "mlx5_0", 2, counters}));
}

TEST(RdmaNlStats, EmptyTableIsNoCounters) {
    auto s = parse_nl_port_stats(stats_reply(1, "siw0", 1, {}));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_TRUE(s->counters.empty());
}

TEST(RdmaNlStats, MalformedAnswersAreErrors) {
    std::vector<std::pair<std::string, std::vector<uint8_t>>> bad;
    {
        auto v = stats_reply(1, "rxe0", 1, {{"sent_pkts", 3}});
        v.resize(v.size() - 20);  // no acknowledgement
        bad.emplace_back("no ack", v);
    }
    {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_STAT_GET, 0).u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1);
        b.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS).unnest().end().error(0);
        bad.emplace_back("no port", b.bytes());
    }
    {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_STAT_GET, 0)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
            .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
            .end()
            .error(0);
        bad.emplace_back("no counter table", b.bytes());
    }
    {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_STAT_GET, 0)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
            .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1);
        b.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS).nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
        b.u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5);  // u64 expected
        b.str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "x").unnest().unnest().end().error(0);
        bad.emplace_back("u32 value", b.bytes());
    }
    {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_STAT_GET, 0)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
            .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1);
        b.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS).nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
        b.u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 5).unnest().unnest().end().error(0);
        bad.emplace_back("entry without name", b.bytes());
    }
    {
        auto one = stats_reply(1, "rxe0", 1, {{"sent_pkts", 3}});
        auto two = one;
        two.resize(two.size() - 20);
        two.insert(two.end(), one.begin(), one.end());
        bad.emplace_back("two answers", two);
    }
    {
        NlBuilder b;
        bad.emplace_back("ack alone", b.error(0).bytes());
    }
    bad.emplace_back("short", std::vector<uint8_t>{1, 2, 3});
    for (const auto& [what, bytes] : bad) {
        EXPECT_FALSE(parse_nl_port_stats(bytes).ok()) << what;
    }
}

TEST(RdmaNlStats, TruncationsAndBitFlipsNeverReadOutOfBounds) {
    const auto good = test::from_hex(test::kRxeStats);
    for (size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_FALSE(parse_nl_port_stats(cut).ok()) << n;
    }
    std::mt19937 rng(4321);
    for (int i = 0; i < 5000; ++i) {
        auto v = good;
        for (int k = 0; k < 3; ++k) v[rng() % v.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        auto r = parse_nl_port_stats(v);
        if (r.ok()) {
            EXPECT_LE(r->counters.size(), kRxeNames.size());
        }
    }
}

TEST(RdmaNlStats, RequestAsksOnePortWithAnAcknowledgement) {
    auto req = nl_port_stats_request(9, 3, 2);
    ASSERT_EQ(req.size(), sizeof(nlmsghdr) + 16);
    nlmsghdr h;
    std::memcpy(&h, req.data(), sizeof h);
    EXPECT_EQ(h.nlmsg_len, req.size());
    EXPECT_EQ(h.nlmsg_type, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET));
    EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(h.nlmsg_seq, 9u);
    nlattr a;
    uint32_t v = 0;
    std::memcpy(&a, req.data() + sizeof h, sizeof a);
    std::memcpy(&v, req.data() + sizeof h + 4, 4);
    EXPECT_EQ(a.nla_type, RDMA_NLDEV_ATTR_DEV_INDEX);
    EXPECT_EQ(v, 3u);
    std::memcpy(&a, req.data() + sizeof h + 8, sizeof a);
    std::memcpy(&v, req.data() + sizeof h + 12, 4);
    EXPECT_EQ(a.nla_type, RDMA_NLDEV_ATTR_PORT_INDEX);
    EXPECT_EQ(v, 2u);
}

}  // namespace
}  // namespace rdmadiag::netlink
