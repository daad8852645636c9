#include "collector/sources/netlink/res_dump_parser.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <random>

#include "tests/collector/sources/netlink/nl_builder.hpp"

namespace rdmadiag::netlink {
namespace {

using test::NlBuilder;

NlBuilder& u8(NlBuilder& b, uint16_t type, uint8_t v) {
    return b.data(type, &v, 1);
}

// A __kernel_sockaddr_storage as the kernel sends it: 128 bytes, the address at the front.
std::vector<uint8_t> storage_of(const void* addr, size_t n) {
    std::vector<uint8_t> out(128);
    std::memcpy(out.data(), addr, n);
    return out;
}

std::vector<uint8_t> ipv4(const char* text, uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, text, &a.sin_addr);
    return storage_of(&a, sizeof a);
}

std::vector<uint8_t> ipv6(const char* text, uint16_t port) {
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_port = htons(port);
    inet_pton(AF_INET6, text, &a.sin6_addr);
    return storage_of(&a, sizeof a);
}

// struct sockaddr_ib: family, __be16 pkey, __be32 flowinfo, the GID, __be64 service ID, ...
std::vector<uint8_t> af_ib(const char* gid, uint16_t pkey, uint64_t sid) {
    std::vector<uint8_t> out(128);
    const uint16_t family = AF_IB;
    std::memcpy(out.data(), &family, 2);
    out[2] = static_cast<uint8_t>(pkey >> 8);
    out[3] = static_cast<uint8_t>(pkey);
    inet_pton(AF_INET6, gid, out.data() + 8);
    for (int i = 0; i < 8; ++i) out[24 + i] = static_cast<uint8_t>(sid >> (56 - 8 * i));
    return out;
}

NlBuilder& qp(NlBuilder& b, uint32_t qpn, std::optional<uint32_t> port, uint8_t type, uint8_t state,
              std::optional<uint32_t> pid, const std::string& kern = "") {
    b.nest(RDMA_NLDEV_ATTR_RES_QP_ENTRY);
    if (port) b.u32(RDMA_NLDEV_ATTR_PORT_INDEX, *port);
    b.u32(RDMA_NLDEV_ATTR_RES_LQPN, qpn);
    u8(b, RDMA_NLDEV_ATTR_RES_TYPE, type);
    u8(b, RDMA_NLDEV_ATTR_RES_STATE, state);
    if (pid) b.u32(RDMA_NLDEV_ATTR_RES_PID, *pid);
    if (!kern.empty()) b.str(RDMA_NLDEV_ATTR_RES_KERN_NAME, kern);
    return b.unnest();
}

TEST(ResDumpParser, QpsAcrossMessages) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET).u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1);
    b.nest(RDMA_NLDEV_ATTR_RES_QP);
    qp(b, 17, 1, 2, 3, 4242);
    qp(b, 18, std::nullopt, 4, 0, 4242);
    b.unnest().end();
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET).u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1);
    b.nest(RDMA_NLDEV_ATTR_RES_QP);
    qp(b, 1, 1, 1, 3, std::nullopt, "ib_core");
    b.unnest().end();
    auto d = parse_nl_qp_dump(b.done().bytes());
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_TRUE(d->complete);
    ASSERT_EQ(d->entries.size(), 3u);
    EXPECT_EQ(d->entries[0], (NlQp{17, 1, 2, 3, std::nullopt, {4242, ""}}));
    EXPECT_EQ(d->entries[1].port, std::nullopt);
    EXPECT_EQ(qp_type_name(d->entries[1].type), "UD");
    EXPECT_EQ(qp_state_name(d->entries[1].state), "RESET");
    EXPECT_EQ(d->entries[2].owner, (NlResOwner{std::nullopt, "ib_core"}));
    EXPECT_EQ(qp_type_name(d->entries[2].type), "GSI");
}

TEST(ResDumpParser, AnEntryWithoutItsNumberMakesTheDumpIncomplete) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET).nest(RDMA_NLDEV_ATTR_RES_QP);
    b.nest(RDMA_NLDEV_ATTR_RES_QP_ENTRY).u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1).unnest();
    qp(b, 20, 1, 4, 3, 7);
    b.unnest().end();
    auto d = parse_nl_qp_dump(b.done().bytes());
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->complete);
    ASSERT_EQ(d->entries.size(), 1u);
    EXPECT_EQ(d->entries[0].qpn, 20u);
}

TEST(ResDumpParser, AnInterruptedDumpIsIncomplete) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_MULTI | NLM_F_DUMP_INTR).nest(RDMA_NLDEV_ATTR_RES_QP);
    qp(b, 20, 1, 4, 3, 7);
    b.unnest().end();
    auto d = parse_nl_qp_dump(b.done().bytes());
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(d->complete);
}

TEST(ResDumpParser, AWrongWidthIsAnError) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET).nest(RDMA_NLDEV_ATTR_RES_QP);
    b.nest(RDMA_NLDEV_ATTR_RES_QP_ENTRY).u32(RDMA_NLDEV_ATTR_RES_TYPE, 2).unnest();
    b.unnest().end();
    EXPECT_FALSE(parse_nl_qp_dump(b.done().bytes()).ok());
}

NlBuilder& cm_id(NlBuilder& b, uint32_t id, uint32_t ps, uint8_t state,
                 const std::vector<uint8_t>& src, const std::vector<uint8_t>& dst) {
    b.nest(RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY).u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1);
    u8(b, RDMA_NLDEV_ATTR_RES_STATE, state);
    b.u32(RDMA_NLDEV_ATTR_RES_PID, 99).u32(RDMA_NLDEV_ATTR_RES_PS, ps);
    b.data(RDMA_NLDEV_ATTR_RES_SRC_ADDR, src.data(), src.size());
    b.data(RDMA_NLDEV_ATTR_RES_DST_ADDR, dst.data(), dst.size());
    b.u32(RDMA_NLDEV_ATTR_RES_CM_IDN, id);
    return b.unnest();
}

TEST(ResDumpParser, CmIdsOfEveryAddressFamily) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_CM_ID_GET).nest(RDMA_NLDEV_ATTR_RES_CM_ID);
    cm_id(b, 0, 0x0106, 8, ipv4("192.0.2.1", 7471), ipv4("0.0.0.0", 0));
    cm_id(b, 1, 0x0111, 5, ipv6("fe80::1", 18515), ipv6("fe80::2", 40000));
    cm_id(b, 2, 0x013F, 7, af_ib("fe80::2:c903:0:1235", 0x8001, 0x10000ce100000001ULL),
          std::vector<uint8_t>(128));
    b.unnest().end();
    auto d = parse_nl_cm_id_dump(b.done().bytes());
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_EQ(d->entries.size(), 3u);
    const auto& v4 = d->entries[0];
    EXPECT_EQ(port_space_name(v4.port_space), "TCP");
    EXPECT_EQ(cm_state_name(v4.state), "LISTEN");
    EXPECT_EQ(to_string(*v4.source), "192.0.2.1:7471");
    EXPECT_EQ(to_string(*v4.destination), "0.0.0.0:0");
    EXPECT_TRUE(is_unspecified(*v4.destination));
    EXPECT_FALSE(is_unspecified(*v4.source));
    // RoCE's GID of an IPv4 address.
    EXPECT_EQ(v4.source->address[10], 0xff);
    EXPECT_EQ(v4.source->address[12], 192);
    const auto& v6 = d->entries[1];
    EXPECT_EQ(to_string(*v6.source), "[fe80::1]:18515");
    EXPECT_EQ(cm_state_name(v6.state), "CONNECT");
    const auto& ib = d->entries[2];
    EXPECT_EQ(ib.source->pkey, 0x8001);
    EXPECT_EQ(ib.source->service, 0x10000ce100000001ULL);
    EXPECT_EQ(to_string(*ib.source), "fe80::2:c903:0:1235 pkey 0x8001 sid 0x10000ce100000001");
    EXPECT_TRUE(is_unspecified(*ib.destination));
    EXPECT_EQ(ib.owner.pid, 99u);
}

TEST(ResDumpParser, ShortOrUnknownAddressesAreErrors) {
    // Cut short: AF_INET, AF_INET6, AF_IB; a lone byte; a family nobody defined.
    const std::vector<std::vector<uint8_t>> bad{
        {AF_INET, 0, 0}, {AF_INET6, 0, 1, 2}, {AF_IB, 0, 0x80, 0x01}, {1}, {99, 0, 0, 0}};
    for (const auto& a : bad) {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_RES_CM_ID_GET).nest(RDMA_NLDEV_ATTR_RES_CM_ID);
        b.nest(RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY).u32(RDMA_NLDEV_ATTR_RES_CM_IDN, 1);
        b.data(RDMA_NLDEV_ATTR_RES_SRC_ADDR, a.data(), a.size()).unnest();
        b.unnest().end();
        EXPECT_FALSE(parse_nl_cm_id_dump(b.done().bytes()).ok());
    }
}

TEST(ResDumpParser, NamesBeyondTheEnumsAreUnknown) {
    EXPECT_EQ(qp_type_name(7), "UNKNOWN");
    EXPECT_EQ(qp_type_name(200), "UNKNOWN");
    EXPECT_EQ(qp_state_name(7), "UNKNOWN");
    EXPECT_EQ(cm_state_name(11), "UNKNOWN");
    EXPECT_EQ(port_space_name(0x0002), "IPOIB");
    EXPECT_EQ(port_space_name(1), "UNKNOWN");
}

// Cut anywhere, or with bytes flipped, a dump is parsed or refused: never read past its end.
TEST(ResDumpParser, DamagedDumpsNeverCrash) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_CM_ID_GET).nest(RDMA_NLDEV_ATTR_RES_CM_ID);
    cm_id(b, 0, 0x0106, 8, ipv4("192.0.2.1", 7471), ipv4("0.0.0.0", 0));
    b.unnest().end();
    const auto whole = b.done().bytes();
    size_t refused = 0;
    for (size_t n = 0; n < whole.size(); ++n) {
        std::vector<uint8_t> cut(whole.begin(), whole.begin() + static_cast<long>(n));
        refused += !parse_nl_cm_id_dump(cut).ok();
    }
    EXPECT_EQ(refused, whole.size());  // without NLMSG_DONE no dump is whole
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        auto bad = whole;
        bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
        (void)parse_nl_cm_id_dump(bad);
        (void)parse_nl_qp_dump(bad);
    }
}

}  // namespace
}  // namespace rdmadiag::netlink
