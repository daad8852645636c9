#include "collector/sources/consumers/ipoib_consumers.hpp"

#include <gtest/gtest.h>
#include <linux/if_arp.h>

namespace rdmadiag::consumers {
namespace {

constexpr uint64_t kGuid = 0x0002c90300001235;

netdev::Link ipoib(int32_t index, const std::string& name, uint16_t pkey, uint16_t mode,
                   uint64_t guid, std::optional<int32_t> parent = std::nullopt) {
    netdev::Link l;
    l.index = index;
    l.name = name;
    l.type = ARPHRD_INFINIBAND;
    l.kind = "ipoib";
    l.ipoib = netdev::Link::Ipoib{pkey, mode, false};
    std::array<uint8_t, 20> hw{0x80, 0x00, 0x04, 0x48, 0xfe, 0x80};
    for (int i = 0; i < 8; ++i)
        hw[12 + static_cast<size_t>(i)] = static_cast<uint8_t>(guid >> (56 - 8 * i));
    l.ib_address = hw;
    l.link = parent;
    return l;
}

TEST(IpoibConsumers, ParentAndChildOnThePortOfTheirGuid) {
    auto parent = ipoib(6, "ib0", 0xffff, 0, kGuid);
    parent.carrier = true;
    parent.operstate = 6;
    auto child = ipoib(7, "ib0.8001", 0x8001, 1, kGuid, 6);
    child.carrier = false;
    child.operstate = 2;
    netdev::Link eth;
    eth.index = 2;
    eth.name = "eth0";
    const auto listing = ipoib_consumers({eth, parent, child}, {{kGuid, PortRef{"mlx5_0", 1}}});
    EXPECT_TRUE(listing.unplaced.empty());
    ASSERT_EQ(listing.consumers.size(), 2u);
    const auto& p = listing.consumers[0];
    EXPECT_EQ(p.kind, ConsumerKind::ipoib);
    EXPECT_EQ(p.name, "ib0");
    EXPECT_EQ(p.device, "mlx5_0");
    EXPECT_EQ(p.port, 1u);
    EXPECT_EQ(p.pkey, 0xffff);
    EXPECT_EQ(p.mode, "datagram");
    EXPECT_EQ(p.qp_type, "UD");
    EXPECT_EQ(p.state, "UP");
    EXPECT_EQ(p.carrier, true);
    EXPECT_EQ(p.parent, "");
    ASSERT_TRUE(p.gid);
    EXPECT_EQ(p.gid->to_string(), "fe80:0000:0000:0000:0002:c903:0000:1235");
    const auto& c = listing.consumers[1];
    EXPECT_EQ(c.name, "ib0.8001");
    EXPECT_EQ(c.parent, "ib0");
    EXPECT_EQ(c.mode, "connected");
    EXPECT_EQ(c.qp_type, "UD");  // connected mode keeps its UD QP for multicast
    EXPECT_EQ(c.carrier, false);
    EXPECT_EQ(c.state, "DOWN");
}

TEST(IpoibConsumers, AnInterfaceOfAnUnknownGuidIsSaidNotPlaced) {
    const auto listing =
        ipoib_consumers({ipoib(6, "ib1", 0xffff, 0, 0x1111)}, {{kGuid, PortRef{"mlx5_0", 1}}});
    EXPECT_TRUE(listing.consumers.empty());
    ASSERT_EQ(listing.unplaced.size(), 1u);
    EXPECT_EQ(listing.unplaced[0], "ib1: sends from GUID 0x0000000000001111, which no port has");
    auto no_address = ipoib(8, "ib2", 0xffff, 0, kGuid);
    no_address.ib_address.reset();
    EXPECT_EQ(ipoib_consumers({no_address}, {{kGuid, PortRef{"mlx5_0", 1}}}).unplaced.at(0),
              "ib2: no InfiniBand hardware address");
}

TEST(IpoibConsumers, OperationalStateNames) {
    EXPECT_EQ(operstate_name(3), "LOWERLAYERDOWN");
    EXPECT_EQ(operstate_name(5), "DORMANT");
    EXPECT_EQ(operstate_name(99), "UNKNOWN");
}

}  // namespace
}  // namespace rdmadiag::consumers
