#include "collector/sources/netdev/rtnl_parser.hpp"

#include <gtest/gtest.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include <cerrno>
#include <random>

#include "tests/collector/sources/netdev/rtnl_bytes.hpp"

namespace rdmadiag::netdev {
namespace {

using test::NlBuilder;

std::vector<Link> some_links() {
    std::vector<Link> links;
    Link lo;
    lo.index = 1;
    lo.name = "lo";
    lo.type = ARPHRD_LOOPBACK;
    lo.flags = IFF_UP | IFF_LOOPBACK;
    lo.mac = std::array<uint8_t, 6>{};
    links.push_back(lo);
    links.push_back(test::ether(2, "eth0", {0x02, 0, 0, 0, 0, 0x10}, IFF_UP));
    Link vlan = test::ether(3, "eth0.100", {0x02, 0, 0, 0, 0, 0x10}, IFF_UP);
    vlan.kind = "vlan";
    vlan.link = 2;
    links.push_back(vlan);
    Link bond = test::ether(4, "bond0", {0x02, 0, 0, 0, 0, 0x20}, IFF_UP | IFF_MASTER);
    bond.kind = "bond";
    bond.bond_active_slave = 5;
    links.push_back(bond);
    Link slave = test::ether(5, "eth1", {0x02, 0, 0, 0, 0, 0x20}, IFF_UP | IFF_SLAVE);
    slave.master = 4;
    links.push_back(slave);
    // IPoIB: a parent in datagram mode and a connected-mode child of P_Key 0x8001 whose key the
    // port lacks (up, carrier off). The hardware address is the UD QPN, then the port GID.
    Link ib0;
    ib0.index = 6;
    ib0.name = "ib0";
    ib0.type = ARPHRD_INFINIBAND;
    ib0.flags = IFF_UP;
    ib0.kind = "ipoib";
    ib0.ipoib = Link::Ipoib{0xffff, 0, false};
    ib0.ib_address = std::array<uint8_t, 20>{0x80, 0, 0x04, 0x48, 0xfe, 0x80, 0, 0, 0,    0,
                                             0,    0, 0x00, 0x02, 0xc9, 0x03, 0, 0, 0x12, 0x35};
    ib0.carrier = true;
    ib0.carrier_changes = 3;
    ib0.operstate = 6;  // IF_OPER_UP
    links.push_back(ib0);
    Link child = ib0;
    child.index = 7;
    child.name = "ib0.8001";
    child.link = 6;
    child.ipoib = Link::Ipoib{0x8001, 1, true};
    child.carrier = false;
    child.operstate = 2;  // IF_OPER_DOWN
    links.push_back(child);
    return links;
}

std::vector<Address> some_addresses() {
    return {test::ipv4(2, 192, 0, 2, 1), test::ipv6(2, "2001:db8::1"),
            test::ipv6(2, "2001:db8::2", IFA_F_PERMANENT | IFA_F_TENTATIVE),
            test::ipv6(3, "fe80::1", IFA_F_PERMANENT | IFA_F_DADFAILED | IFA_F_TENTATIVE)};
}

TEST(RtnlParser, LinksParseBackToWhatWasBuilt) {
    auto links = parse_link_dump(test::link_dump(some_links()));
    ASSERT_TRUE(links.ok()) << links.error().message;
    EXPECT_EQ(*links, some_links());
    EXPECT_TRUE((*links)[1].up());
}

TEST(RtnlParser, AddressesParseBackToWhatWasBuilt) {
    auto addresses = parse_address_dump(test::address_dump(some_addresses()));
    ASSERT_TRUE(addresses.ok()) << addresses.error().message;
    EXPECT_EQ(*addresses, some_addresses());
    EXPECT_FALSE((*addresses)[1].tentative());
    EXPECT_TRUE((*addresses)[2].tentative());
    EXPECT_TRUE((*addresses)[3].dad_failed());
}

// Kernels before IFA_FLAGS, and flags that fit in ifa_flags, come in the header alone.
TEST(RtnlParser, AddressFlagsWithoutIfaFlagsAttribute) {
    NlBuilder b;
    ifaddrmsg ifa{};
    ifa.ifa_family = AF_INET6;
    ifa.ifa_prefixlen = 64;
    ifa.ifa_flags = IFA_F_TENTATIVE;
    ifa.ifa_index = 2;
    auto addr = parse_gid("2001:db8::5").value().raw;
    b.begin_type(RTM_NEWADDR).raw(&ifa, sizeof ifa).data(IFA_ADDRESS, addr.data(), 16).end().done();
    auto a = parse_address_dump(b.bytes());
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 1u);
    EXPECT_TRUE((*a)[0].tentative());
    EXPECT_EQ((*a)[0].address, addr);
}

TEST(RtnlParser, OtherFamiliesAreSkipped) {
    NlBuilder b;
    ifaddrmsg ifa{};
    ifa.ifa_family = AF_PACKET;
    ifa.ifa_index = 2;
    b.begin_type(RTM_NEWADDR).raw(&ifa, sizeof ifa).end().done();
    auto a = parse_address_dump(b.bytes());
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_TRUE(a->empty());
}

// A VLAN whose lower device lives in another namespace names an ifindex of that namespace.
TEST(RtnlParser, LinkInAnotherNamespaceIsNotALowerDevice) {
    NlBuilder b;
    ifinfomsg ifi{};
    ifi.ifi_type = ARPHRD_ETHER;
    ifi.ifi_index = 7;
    b.begin_type(RTM_NEWLINK).raw(&ifi, sizeof ifi).str(IFLA_IFNAME, "v0").u32(IFLA_LINK, 2);
    b.u32(IFLA_LINK_NETNSID, 1).end().done();
    auto links = parse_link_dump(b.bytes());
    ASSERT_TRUE(links.ok()) << links.error().message;
    ASSERT_EQ(links->size(), 1u);
    EXPECT_FALSE((*links)[0].link.has_value());
}

TEST(RtnlParser, MalformedDumpsAreErrors) {
    // An IPv4 address of 16 bytes.
    NlBuilder wrong_size;
    ifaddrmsg ifa{};
    ifa.ifa_family = AF_INET;
    ifa.ifa_index = 2;
    uint8_t sixteen[16] = {};
    wrong_size.begin_type(RTM_NEWADDR).raw(&ifa, sizeof ifa).data(IFA_ADDRESS, sixteen, 16);
    wrong_size.end().done();
    EXPECT_FALSE(parse_address_dump(wrong_size.bytes()).ok());
    // A header shorter than ifinfomsg.
    NlBuilder short_header;
    uint32_t four = 0;
    short_header.begin_type(RTM_NEWLINK).raw(&four, 4).end().done();
    EXPECT_FALSE(parse_link_dump(short_header.bytes()).ok());
    // A link without a name.
    NlBuilder nameless;
    ifinfomsg ifi{};
    ifi.ifi_index = 3;
    nameless.begin_type(RTM_NEWLINK).raw(&ifi, sizeof ifi).end().done();
    EXPECT_FALSE(parse_link_dump(nameless.bytes()).ok());
    // No NLMSG_DONE.
    auto cut = test::link_dump(some_links());
    cut.resize(cut.size() - 20);
    EXPECT_FALSE(parse_link_dump(cut).ok());
    // The kernel's error.
    NlBuilder err;
    err.error(-EPERM);
    auto e = parse_address_dump(err.bytes());
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code, EPERM);
}

TEST(RtnlParser, InterruptedDumpIsAnErrorToRetry) {
    NlBuilder b;
    test::add_link(b, some_links()[1], NLM_F_MULTI | NLM_F_DUMP_INTR);
    auto links = parse_link_dump(b.done().bytes());
    ASSERT_FALSE(links.ok());
    EXPECT_EQ(links.error().code, EAGAIN);
}

// What a broken dump may give: an error, or entries read from the bytes that are there. Under
// the sanitizers this also shows nothing is read outside them.
template <typename T>
void expect_at_most_one_entry_changed(const Result<std::vector<T>>& got,
                                      const std::vector<T>& built, size_t flipped_at) {
    if (!got.ok()) return;
    ASSERT_LE(got->size(), built.size()) << "bit flipped at byte " << flipped_at;
    if (got->size() < built.size()) return;  // a flipped length swallowed a message
    size_t changed = 0;
    for (size_t k = 0; k < built.size(); ++k) changed += (*got)[k] == built[k] ? 0 : 1;
    EXPECT_LE(changed, 1u) << "bit flipped at byte " << flipped_at;
}

TEST(RtnlParser, TruncationsAndBitFlipsNeverReadOutOfBounds) {
    const auto links = test::link_dump(some_links());
    const auto addresses = test::address_dump(some_addresses());
    for (const auto* bytes : {&links, &addresses}) {
        for (size_t n = 0; n < bytes->size(); ++n) {
            // A cut dump has lost its NLMSG_DONE at least: never taken for a whole one.
            std::vector<uint8_t> cut(bytes->begin(), bytes->begin() + static_cast<long>(n));
            EXPECT_FALSE(parse_link_dump(cut).ok()) << "cut at " << n;
            EXPECT_FALSE(parse_address_dump(cut).ok()) << "cut at " << n;
        }
    }
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        auto flipped = links;
        const size_t at = rng() % flipped.size();
        flipped[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        expect_at_most_one_entry_changed(parse_link_dump(flipped), some_links(), at);
    }
    for (int i = 0; i < 2000; ++i) {
        auto flipped = addresses;
        const size_t at = rng() % flipped.size();
        flipped[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        expect_at_most_one_entry_changed(parse_address_dump(flipped), some_addresses(), at);
    }
}

TEST(RtnlParser, Requests) {
    auto req = link_dump_request(5);
    nlmsghdr h{};
    std::memcpy(&h, req.data(), sizeof h);
    EXPECT_EQ(h.nlmsg_len, req.size());
    EXPECT_EQ(h.nlmsg_type, RTM_GETLINK);
    EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_EQ(h.nlmsg_seq, 5u);
    EXPECT_EQ(req.size(), NLMSG_LENGTH(sizeof(ifinfomsg)));
    req = address_dump_request(6);
    std::memcpy(&h, req.data(), sizeof h);
    EXPECT_EQ(h.nlmsg_type, RTM_GETADDR);
    EXPECT_EQ(req.size(), NLMSG_LENGTH(sizeof(ifaddrmsg)));
}

}  // namespace
}  // namespace rdmadiag::netdev
