#include "collector/model/gid.hpp"

#include <gtest/gtest.h>

#include "collector/model/gid_state.hpp"

namespace rdmadiag {
namespace {

TEST(Gid, ReadsTheKernelsFormAndEveryIpv6Form) {
    auto full = parse_gid("fe80:0000:0000:0000:0002:c903:0000:1235\n");
    ASSERT_TRUE(full);
    EXPECT_EQ(full->prefix(), 0xfe80000000000000ull);
    EXPECT_EQ(full->interface_id(), 0x0002c90300001235ull);
    EXPECT_EQ(full->to_string(), "fe80:0000:0000:0000:0002:c903:0000:1235");
    EXPECT_EQ(*parse_gid("fe80::2:c903:0:1235"), *full);
    EXPECT_EQ(*parse_gid("::ffff:192.0.2.1"), gid_from_ipv4(0xc0000201));
    EXPECT_EQ(Gid::from_parts(0xfe80000000000000ull, 0x0002c90300001235ull), *full);
}

TEST(Gid, RefusesWhatIsNotAGid) {
    for (const char* bad : {"", "fe80", "192.0.2.1", "fe80::1::2", "zz80::1",
                            "fe80:0000:0000:0000:0002:c903:0000:1235:1"}) {
        EXPECT_FALSE(parse_gid(bad)) << bad;
    }
    EXPECT_FALSE(parse_gid(std::string(4096, 'f')));
}

TEST(Gid, DefaultRoceGidIsTheModifiedEui64OfTheMac) {
    const auto g = gid_from_mac({0x52, 0x54, 0x00, 0x12, 0x34, 0x56});
    EXPECT_EQ(g.to_string(), "fe80:0000:0000:0000:5054:00ff:fe12:3456");
}

TEST(Gid, FormatsPrefixesAndGuids) {
    EXPECT_EQ(format_subnet_prefix(0xfec0000000000001ull), "fec0:0000:0000:0001");
    EXPECT_EQ(format_guid(0x2c90300001235ull), "0x0002c90300001235");
}

TEST(Gid, TypesAndViewsHaveStableNames) {
    EXPECT_EQ(parse_gid_type("IB/RoCE v1"), GidType::roce_v1);
    EXPECT_EQ(parse_gid_type("RoCE v2\n"), GidType::roce_v2);
    EXPECT_EQ(parse_gid_type("IB"), GidType::ib);
    EXPECT_FALSE(parse_gid_type("RoCE v3"));
    for (auto v : kAllGidViews) EXPECT_EQ(parse_gid_view(to_string(v)), v);
    EXPECT_EQ(parse_gid_coherence("stale"), GidCoherence::stale);
}

TEST(Gid, AddressesMacsAndPrefixesFromText) {
    EXPECT_EQ(*gid_from_address("192.0.2.1"), *parse_gid("::ffff:192.0.2.1"));
    EXPECT_EQ(*gid_from_address("2001:db8::1"), *parse_gid("2001:db8::1"));
    EXPECT_FALSE(gid_from_address("192.0.2"));
    EXPECT_FALSE(gid_from_address("host.example"));
    auto mac = parse_mac("52:54:00:12:34:56");
    ASSERT_TRUE(mac);
    EXPECT_EQ((*mac)[0], 0x52);
    EXPECT_EQ((*mac)[5], 0x56);
    EXPECT_FALSE(parse_mac("52:54:00:12:34"));
    EXPECT_FALSE(parse_mac("52-54-00-12-34-56"));
    EXPECT_FALSE(parse_mac("52:54:00:12:34:zz"));
    EXPECT_EQ(*parse_subnet_prefix("fec0:0000:0000:0000"), 0xfec0000000000000ull);
    EXPECT_EQ(*parse_subnet_prefix("fec0::"), 0xfec0000000000000ull);
    EXPECT_FALSE(parse_subnet_prefix("fec0::1"));
    EXPECT_FALSE(parse_subnet_prefix("fec0"));
}

TEST(GidTable, FindsAnEntryByIndex) {
    GidTable t;
    t.entries.push_back(GidEntry{3, gid_from_ipv4(1), GidType::roce_v2, "eth0"});
    ASSERT_NE(t.at(3), nullptr);
    EXPECT_EQ(t.at(3)->ndev, "eth0");
    EXPECT_EQ(t.at(0), nullptr);
    EXPECT_TRUE(t.complete());
}

}  // namespace
}  // namespace rdmadiag
