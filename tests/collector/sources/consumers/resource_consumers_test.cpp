#include "collector/sources/consumers/resource_consumers.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <map>

namespace rdmadiag::consumers {
namespace {

using netlink::NlCmId;
using netlink::NlQp;
using netlink::NlResOwner;
using netlink::NlSockAddr;

constexpr uint8_t kRc = 2, kUd = 4, kGsi = 1, kRts = 3;

CommOf comms(std::map<uint32_t, std::string> names) {
    return [names](uint32_t pid) -> std::optional<std::string> {
        auto it = names.find(pid);
        if (it == names.end()) return std::nullopt;
        return it->second;
    };
}

NlQp qp(uint32_t n, uint32_t port, uint8_t type, std::optional<uint32_t> pid,
        std::string kern = "") {
    return NlQp{n, port, type, kRts, std::nullopt, NlResOwner{pid, std::move(kern)}};
}

TEST(QpConsumers, CountedPerPortTypeAndOwner) {
    const std::vector<NlQp> qps{qp(17, 1, kRc, 100), qp(18, 1, kRc, 100), qp(19, 1, kUd, 100),
                                qp(20, 2, kRc, 100), qp(1, 1, kGsi, std::nullopt, "ib_core")};
    const auto out = qp_consumers("mlx5_0", qps, comms({{100, "ib_write_bw"}}));
    ASSERT_EQ(out.size(), 4u);
    // Ordered by port, type, owner.
    EXPECT_EQ(out[0].port, 1u);
    EXPECT_EQ(out[0].qp_type, "GSI");
    EXPECT_EQ(out[0].owner, (ConsumerOwner{std::nullopt, "ib_core"}));
    EXPECT_EQ(out[1].qp_type, "RC");
    EXPECT_EQ(out[1].count, 2u);
    EXPECT_EQ(out[1].owner, (ConsumerOwner{100u, "ib_write_bw"}));
    EXPECT_EQ(out[2].qp_type, "UD");
    EXPECT_EQ(out[3].port, 2u);
    for (const auto& c : out) {
        EXPECT_EQ(c.kind, ConsumerKind::qp);
        EXPECT_EQ(c.device, "mlx5_0");
    }
}

TEST(QpConsumers, OwnersBeyondTheTopAreCountedAsOther) {
    std::vector<NlQp> qps;
    // pid 1 holds 5 QPs, pid 2 four, ... pid 5 one: with the top 2 named, pids 3-5 are "other".
    uint32_t n = 100;
    for (uint32_t pid = 1; pid <= 5; ++pid)
        for (uint32_t i = 0; i < 6 - pid; ++i) qps.push_back(qp(n++, 1, kRc, pid));
    const auto out = qp_consumers("mlx5_0", qps, comms({}), 2);
    ASSERT_EQ(out.size(), 3u);
    uint32_t total = 0;
    std::map<std::string, uint32_t> by_owner;
    for (const auto& c : out) {
        total += c.count;
        by_owner[c.owner.pid ? std::to_string(*c.owner.pid) : c.owner.name] = c.count;
    }
    EXPECT_EQ(total, qps.size());
    EXPECT_EQ(by_owner["1"], 5u);
    EXPECT_EQ(by_owner["2"], 4u);
    EXPECT_EQ(by_owner["other"], 6u);
}

TEST(QpConsumers, AnUnboundQpCountsOnPortZero) {
    auto unbound = qp(17, 0, kRc, 7);
    unbound.port.reset();
    const auto out = qp_consumers("rxe0", {unbound}, comms({{7, "app"}}));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].port, 0u);
}

NlSockAddr ipv4(const char* text, uint16_t port) {
    NlSockAddr a;
    a.family = AF_INET;
    a.port = port;
    a.address[10] = a.address[11] = 0xff;
    inet_pton(AF_INET, text, a.address.data() + 12);
    return a;
}

NlCmId cm_id(uint32_t id, NlSockAddr src, std::optional<uint32_t> pid, uint32_t ps = 0x0106,
             uint8_t state = 5) {
    NlCmId c;
    c.id = id;
    c.port = 1;
    c.port_space = ps;
    c.state = state;
    c.source = src;
    c.destination = ipv4("0.0.0.0", 0);
    c.owner.pid = pid;
    return c;
}

TEST(CmIdConsumers, OnRoceTheSourceAddressIsTheGid) {
    const auto out = cm_id_consumers("rxe0", "roce", {cm_id(3, ipv4("192.0.2.1", 7471), 145)},
                                     comms({{145, "rping"}}), nullptr);
    ASSERT_EQ(out.size(), 1u);
    const auto& c = out[0];
    EXPECT_EQ(c.kind, ConsumerKind::cm_id);
    EXPECT_EQ(c.name, "cm_id 3");
    EXPECT_EQ(c.owner, (ConsumerOwner{145u, "rping"}));
    EXPECT_EQ(c.state, "CONNECT");
    EXPECT_EQ(c.qp_type, "RC");  // TCP port space
    EXPECT_EQ(c.address, "192.0.2.1:7471");
    ASSERT_TRUE(c.gid);
    EXPECT_EQ(*c.gid, gid_from_address("192.0.2.1").value());
    EXPECT_FALSE(c.pkey);
}

TEST(CmIdConsumers, AWildcardListenerHasNoGid) {
    const auto out = cm_id_consumers(
        "rxe0", "roce", {cm_id(0, ipv4("0.0.0.0", 7471), 1, 0x0111, 8)}, comms({}), nullptr);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_FALSE(out[0].gid);
    EXPECT_EQ(out[0].qp_type, "UD");  // UDP port space
    EXPECT_EQ(out[0].state, "LISTEN");
    EXPECT_EQ(out[0].owner, (ConsumerOwner{1u, ""}));  // no such process here
}

TEST(CmIdConsumers, OnInfinibandAnIpAddressTakesItsIpoibInterfacesPkeyAndGid) {
    const Gid port_gid = parse_gid("fe80::2:c903:0:1235").value();
    IpoibAddressOf lookup = [&](const std::array<uint8_t, 16>& a) -> std::optional<IpoibAddress> {
        if (a == ipv4("10.1.0.5", 0).address) return IpoibAddress{"ib0.8001", 0x8001, port_gid};
        return std::nullopt;
    };
    const auto out = cm_id_consumers(
        "mlx5_0", "ib", {cm_id(1, ipv4("10.1.0.5", 4791), 9), cm_id(2, ipv4("10.9.9.9", 1), 9)},
        comms({}), lookup);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].pkey, 0x8001);
    EXPECT_EQ(out[0].gid, port_gid);
    EXPECT_EQ(out[0].parent, "ib0.8001");
    // An address of no IPoIB interface on an InfiniBand port: neither is known.
    EXPECT_FALSE(out[1].pkey);
    EXPECT_FALSE(out[1].gid);
}

TEST(CmIdConsumers, AnAfIbAddressCarriesItsOwnPkeyAndGid) {
    NlSockAddr ib;
    ib.family = AF_IB;
    ib.pkey = 0x8002;
    ib.service = 0x10000ce100000001ULL;
    ib.address = parse_gid("fe80::2:c903:0:1235").value().raw;
    auto id = cm_id(4, ib, std::nullopt, 0x013F);
    id.owner.kernel_name = "ib_srp";
    id.qp_type = kRc;
    const auto out = cm_id_consumers("mlx5_0", "ib", {id}, comms({}), nullptr);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].pkey, 0x8002);
    EXPECT_EQ(out[0].gid->raw, ib.address);
    EXPECT_EQ(out[0].owner, (ConsumerOwner{std::nullopt, "ib_srp"}));
    EXPECT_EQ(out[0].qp_type, "RC");
}

}  // namespace
}  // namespace rdmadiag::consumers
