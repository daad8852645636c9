#include "collector/sources/netdev/kernel_gids.hpp"

#include <gtest/gtest.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>

#include <set>
#include <utility>

#include "tests/collector/sources/netdev/rtnl_bytes.hpp"

namespace rdmadiag::netdev {
namespace {

using Pairs = std::set<std::pair<std::string, std::string>>;  // (GID text, netdev)

constexpr std::array<uint8_t, 6> kMac0 = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
constexpr std::array<uint8_t, 6> kMac1 = {0x52, 0x54, 0x00, 0xab, 0xcd, 0xef};
const std::string kDefault0 = "fe80:0000:0000:0000:5054:00ff:fe12:3456";
const std::string kDefault1 = "fe80:0000:0000:0000:5054:00ff:feab:cdef";

std::string gid(const std::string& text) {
    return parse_gid(text).value().to_string();
}

Pairs pairs(const GidTable& t) {
    Pairs out;
    for (const auto& e : t.entries) out.emplace(e.gid.to_string(), e.ndev);
    return out;
}

TEST(KernelGids, DefaultGidFromTheMacThenIpv4AndIpv6) {
    std::vector<Link> links{test::ether(2, "eth0", kMac0)};
    std::vector<Address> addrs{test::ipv4(2, 192, 0, 2, 1), test::ipv6(2, "2001:db8::1")};
    auto t = kernel_roce_gids(2, links, addrs);
    ASSERT_EQ(t.entries.size(), 3u);
    EXPECT_EQ(t.entries[0].gid.to_string(), kDefault0);
    EXPECT_EQ(t.entries[1].gid.to_string(), gid("::ffff:192.0.2.1"));
    EXPECT_EQ(t.entries[2].gid.to_string(), gid("2001:db8::1"));
    for (size_t i = 0; i < t.entries.size(); ++i) {
        EXPECT_EQ(t.entries[i].index, i);
        EXPECT_EQ(t.entries[i].type, GidType::unknown);
        EXPECT_EQ(t.entries[i].ndev, "eth0");
    }
    EXPECT_TRUE(t.complete());
}

// The EUI-64 link-local address is the default GID: one entry, as in the kernel's table.
TEST(KernelGids, LinkLocalEqualToTheDefaultGidIsOneEntry) {
    std::vector<Link> links{test::ether(2, "eth0", kMac0)};
    std::vector<Address> addrs{test::ipv6(2, "fe80::5054:ff:fe12:3456"),
                               test::ipv6(2, "fe80::1234")};
    EXPECT_EQ(pairs(kernel_roce_gids(2, links, addrs)),
              (Pairs{{kDefault0, "eth0"}, {gid("fe80::1234"), "eth0"}}));
}

// ipv6_add_addr() announces an address before DAD, and a configured address whose DAD failed
// stays on the list: both have GIDs.
TEST(KernelGids, TentativeAndDadFailedAddressesCount) {
    std::vector<Link> links{test::ether(2, "eth0", kMac0)};
    std::vector<Address> addrs{
        test::ipv6(2, "2001:db8::1", IFA_F_PERMANENT | IFA_F_TENTATIVE),
        test::ipv6(2, "2001:db8::2", IFA_F_PERMANENT | IFA_F_TENTATIVE | IFA_F_DADFAILED)};
    EXPECT_EQ(
        pairs(kernel_roce_gids(2, links, addrs)),
        (Pairs{{kDefault0, "eth0"}, {gid("2001:db8::1"), "eth0"}, {gid("2001:db8::2"), "eth0"}}));
}

// No NETDEV_DOWN case in netdevice_event(): what the list holds stays.
TEST(KernelGids, DownNetdevKeepsItsGids) {
    std::vector<Link> links{test::ether(2, "eth0", kMac0, 0)};
    std::vector<Address> addrs{test::ipv4(2, 192, 0, 2, 1)};
    EXPECT_EQ(pairs(kernel_roce_gids(2, links, addrs)),
              (Pairs{{kDefault0, "eth0"}, {gid("::ffff:192.0.2.1"), "eth0"}}));
}

TEST(KernelGids, VlanUpperDevicesAddTheirAddressesOnTheirOwnName) {
    Link vlan = test::ether(3, "eth0.100", kMac0);
    vlan.kind = "vlan";
    vlan.link = 2;
    Link other = test::ether(4, "eth9", kMac1);
    std::vector<Link> links{test::ether(2, "eth0", kMac0), vlan, other};
    std::vector<Address> addrs{test::ipv4(3, 192, 0, 2, 100), test::ipv6(3, "2001:db8:100::1"),
                               test::ipv4(4, 198, 51, 100, 1)};
    // The VLAN has no default GID of its own (only the port's netdev and a bond master do).
    EXPECT_EQ(pairs(kernel_roce_gids(2, links, addrs)),
              (Pairs{{kDefault0, "eth0"},
                     {gid("::ffff:192.0.2.100"), "eth0.100"},
                     {gid("2001:db8:100::1"), "eth0.100"}}));
}

TEST(KernelGids, StackedVlansFindTheirRealDevice) {
    Link outer = test::ether(3, "eth0.10", kMac0);
    outer.kind = "vlan";
    outer.link = 2;
    Link inner = test::ether(4, "eth0.10.20", kMac0);
    inner.kind = "vlan";
    inner.link = 3;
    std::vector<Link> links{test::ether(2, "eth0", kMac0), outer, inner};
    std::vector<Address> addrs{test::ipv4(4, 192, 0, 2, 20)};
    EXPECT_TRUE(pairs(kernel_roce_gids(2, links, addrs))
                    .contains({gid("::ffff:192.0.2.20"), "eth0.10.20"}));
}

// An active-backup bond: the active slave's port takes the bond's addresses and those of a VLAN
// on the bond; every slave's port has the bond's default GID and none of its own.
struct Bond {
    std::vector<Link> links;
    std::vector<Address> addrs;
    Bond(std::optional<int32_t> active) {
        Link bond = test::ether(4, "bond0", kMac1, IFF_UP | IFF_MASTER);
        bond.kind = "bond";
        bond.bond_active_slave = active;
        Link s0 = test::ether(2, "eth0", kMac0, IFF_UP | IFF_SLAVE);
        s0.master = 4;
        Link s1 = test::ether(3, "eth1", kMac1, IFF_UP | IFF_SLAVE);
        s1.master = 4;
        Link vlan = test::ether(5, "bond0.7", kMac1);
        vlan.kind = "vlan";
        vlan.link = 4;
        links = {s0, s1, bond, vlan};
        addrs = {test::ipv4(4, 192, 0, 2, 4), test::ipv4(5, 192, 0, 2, 5)};
    }
};

TEST(KernelGids, ActiveSlaveTakesTheBondsAddresses) {
    Bond b(2);
    EXPECT_EQ(pairs(kernel_roce_gids(2, b.links, b.addrs)),
              (Pairs{{kDefault1, "bond0"},
                     {gid("::ffff:192.0.2.4"), "bond0"},
                     {gid("::ffff:192.0.2.5"), "bond0.7"}}));
    EXPECT_EQ(pairs(kernel_roce_gids(3, b.links, b.addrs)), (Pairs{{kDefault1, "bond0"}}));
}

// 802.3ad, balance-rr: no active slave, every slave takes the addresses.
TEST(KernelGids, BondWithoutActiveSlaveGivesEverySlaveTheAddresses) {
    Bond b(std::nullopt);
    const Pairs want{{kDefault1, "bond0"},
                     {gid("::ffff:192.0.2.4"), "bond0"},
                     {gid("::ffff:192.0.2.5"), "bond0.7"}};
    EXPECT_EQ(pairs(kernel_roce_gids(2, b.links, b.addrs)), want);
    EXPECT_EQ(pairs(kernel_roce_gids(3, b.links, b.addrs)), want);
}

// A slave's own addresses stay its own.
TEST(KernelGids, SlaveKeepsItsOwnAddresses) {
    Bond b(3);
    b.addrs.push_back(test::ipv6(2, "fe80::99"));
    EXPECT_EQ(pairs(kernel_roce_gids(2, b.links, b.addrs)),
              (Pairs{{kDefault1, "bond0"}, {gid("fe80::99"), "eth0"}}));
}

TEST(KernelGids, NonEthernetDevicesAndUnknownPortsGiveNothing) {
    Link ib;
    ib.index = 2;
    ib.name = "ib0";
    ib.type = ARPHRD_INFINIBAND;
    EXPECT_TRUE(kernel_roce_gids(2, {ib}, {test::ipv4(2, 192, 0, 2, 1)}).entries.empty());
    EXPECT_TRUE(kernel_roce_gids(9, {test::ether(2, "eth0", kMac0)}, {}).entries.empty());
    // A tunnel above the port is Ethernet-less: its addresses are not the port's.
    Link gre;
    gre.index = 3;
    gre.name = "gre1";
    gre.type = ARPHRD_IPGRE;
    gre.link = 2;
    gre.kind = "vlan";  // even if it were linked as an upper
    EXPECT_EQ(pairs(kernel_roce_gids(2, {test::ether(2, "eth0", kMac0), gre},
                                     {test::ipv4(3, 192, 0, 2, 3)})),
              (Pairs{{kDefault0, "eth0"}}));
}

// IPv4 on a point-to-point link: the kernel takes ifa_address, the peer.
TEST(KernelGids, Ipv4TakesIfaAddressAndIpv6ItsLocalAddress) {
    Address v4 = test::ipv4(2, 192, 0, 2, 1);
    v4.address = std::array<uint8_t, 16>{192, 0, 2, 2};
    Address v6 = test::ipv6(2, "2001:db8::2");
    v6.local = parse_gid("2001:db8::1").value().raw;
    EXPECT_EQ(
        pairs(kernel_roce_gids(2, {test::ether(2, "eth0", kMac0)}, {v4, v6})),
        (Pairs{
            {kDefault0, "eth0"}, {gid("::ffff:192.0.2.2"), "eth0"}, {gid("2001:db8::1"), "eth0"}}));
}

TEST(KernelGids, LinkLoopsDoNotHang) {
    Link a = test::ether(2, "a", kMac0);
    Link b = test::ether(3, "b", kMac1);
    a.kind = b.kind = "vlan";
    a.link = 3;
    b.link = 2;
    a.master = 3;
    b.master = 2;
    // Each is the other's upper: the walk ends, and the port still has its own default GID and
    // the address of the device above it.
    EXPECT_EQ(pairs(kernel_roce_gids(2, {a, b}, {test::ipv4(3, 192, 0, 2, 3)})),
              (Pairs{{kDefault0, "a"}, {gid("::ffff:192.0.2.3"), "b"}}));
}

}  // namespace
}  // namespace rdmadiag::netdev
