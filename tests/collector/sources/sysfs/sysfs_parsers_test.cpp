#include "collector/sources/sysfs/sysfs_parsers.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

namespace rdmadiag::sysfs {
namespace {

// Every parser refuses the same families of bad input the same way.
template <class Parse>
void expect_rejects_common_garbage(Parse parse) {
    for (std::string_view bad :
         {std::string_view(""), std::string_view("\n"), std::string_view("garbage\n"),
          std::string_view("\x01\x02\n"), std::string_view("N/A (no PMA)\n")}) {
        EXPECT_FALSE(parse(bad).ok()) << "accepted '" << bad << "'";
    }
    EXPECT_FALSE(parse(std::string(300, '7') + "\n").ok());
}

TEST(SysfsValueLine, StripsOneNewlineOnly) {
    EXPECT_EQ(*value_line("0x1a\n"), "0x1a");
    EXPECT_EQ(*value_line("0x1a"), "0x1a");
    EXPECT_FALSE(value_line("0x1a\n\n").ok());
    EXPECT_FALSE(value_line("0x1a \n").ok());
    EXPECT_FALSE(value_line(" 0x1a\n").ok());
    EXPECT_FALSE(value_line("a\nb\n").ok());
    EXPECT_EQ(value_line("").error().code, ENODATA);
    EXPECT_EQ(value_line("\n").error().code, ENODATA);
    EXPECT_EQ(value_line(std::string(257, 'a')).error().code, EOVERFLOW);
    EXPECT_TRUE(value_line(std::string(256, 'a')).ok());
}

TEST(SysfsValueLine, ErrorsQuoteWhatWasFoundWithControlBytesEscaped) {
    auto r = parse_lid("0x\x07zz\n");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("\\x07"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().code, EINVAL);
}

TEST(SysfsPortState, ParsesEveryKernelState) {
    EXPECT_EQ(*parse_port_state("1: DOWN\n"), PortState::down);
    EXPECT_EQ(*parse_port_state("2: INIT\n"), PortState::init);
    EXPECT_EQ(*parse_port_state("3: ARMED\n"), PortState::armed);
    EXPECT_EQ(*parse_port_state("4: ACTIVE\n"), PortState::active);
    EXPECT_EQ(*parse_port_state("5: ACTIVE_DEFER\n"), PortState::active_defer);
    EXPECT_EQ(*parse_port_state("0: NOP\n"), PortState::nop);
}

TEST(SysfsPortState, RejectsMismatchUnknownAndJunk) {
    EXPECT_FALSE(parse_port_state("4: DOWN\n").ok());
    EXPECT_FALSE(parse_port_state("7: UNKNOWN\n").ok());
    EXPECT_FALSE(parse_port_state("4:ACTIVE\n").ok());
    EXPECT_FALSE(parse_port_state("4: ACTIVE junk\n").ok());
    EXPECT_FALSE(parse_port_state("-4: ACTIVE\n").ok());
    EXPECT_FALSE(parse_port_state("ACTIVE\n").ok());
    expect_rejects_common_garbage(parse_port_state);
}

TEST(SysfsPhysState, ParsesNamesIncludingSpacesAndUnknown) {
    EXPECT_EQ(*parse_phys_state("5: LinkUp\n"), (PhysState{5, "LinkUp"}));
    EXPECT_EQ(*parse_phys_state("3: Disabled\n"), (PhysState{3, "Disabled"}));
    EXPECT_EQ(*parse_phys_state("7: Phy Test\n"), (PhysState{7, "Phy Test"}));
    EXPECT_EQ(*parse_phys_state("9: <unknown>\n"), (PhysState{9, "<unknown>"}));
    EXPECT_FALSE(parse_phys_state("256: LinkUp\n").ok());
    EXPECT_FALSE(parse_phys_state("5: \n").ok());
    EXPECT_FALSE(parse_phys_state("LinkUp\n").ok());
    expect_rejects_common_garbage(parse_phys_state);
}

TEST(SysfsLid, ParsesHexWithPrefix) {
    EXPECT_EQ(*parse_lid("0x3\n"), 3u);
    EXPECT_EQ(*parse_lid("0x0\n"), 0u);
    EXPECT_EQ(*parse_lid("0xbfff\n"), 0xbfffu);
    EXPECT_EQ(*parse_lid("0xffffffff\n"), 0xffffffffu);
    EXPECT_FALSE(parse_lid("0x\n").ok());
    EXPECT_FALSE(parse_lid("3\n").ok());
    EXPECT_FALSE(parse_lid("0x100000000\n").ok());
    EXPECT_FALSE(parse_lid("-0x3\n").ok());
    EXPECT_FALSE(parse_lid("0x3g\n").ok());
    expect_rejects_common_garbage(parse_lid);
}

TEST(SysfsLidMaskCount, ParsesSmallDecimal) {
    EXPECT_EQ(*parse_lid_mask_count("0\n"), 0);
    EXPECT_EQ(*parse_lid_mask_count("7\n"), 7);
    EXPECT_FALSE(parse_lid_mask_count("-1\n").ok());
    EXPECT_FALSE(parse_lid_mask_count("256\n").ok());
    EXPECT_FALSE(parse_lid_mask_count("0x1\n").ok());
    expect_rejects_common_garbage(parse_lid_mask_count);
}

TEST(SysfsLinkLayer, ParsesTheThreeKernelNames) {
    EXPECT_EQ(*parse_link_layer("InfiniBand\n"), LinkLayer::infiniband);
    EXPECT_EQ(*parse_link_layer("Ethernet\n"), LinkLayer::ethernet);
    EXPECT_EQ(*parse_link_layer("Unknown\n"), LinkLayer::unknown);
    EXPECT_FALSE(parse_link_layer("infiniband\n").ok());
    EXPECT_FALSE(parse_link_layer("IB\n").ok());
    expect_rejects_common_garbage(parse_link_layer);
}

TEST(SysfsRate, ParsesWidthSpeedAndHalfGigabits) {
    EXPECT_EQ(*parse_rate("100 Gb/sec (4X EDR)\n"), (LinkRate{1000, 4, "EDR"}));
    EXPECT_EQ(*parse_rate("2.5 Gb/sec (1X)\n"), (LinkRate{25, 1, ""}));
    EXPECT_EQ(*parse_rate("10 Gb/sec (4X)\n"), (LinkRate{100, 4, ""}));
    EXPECT_EQ(*parse_rate("56 Gb/sec (4X FDR)\n"), (LinkRate{560, 4, "FDR"}));
    EXPECT_EQ(*parse_rate("40 Gb/sec (4X FDR10)\n"), (LinkRate{400, 4, "FDR10"}));
    EXPECT_EQ(*parse_rate("600 Gb/sec (12X HDR)\n"), (LinkRate{6000, 12, "HDR"}));
    EXPECT_EQ(*parse_rate("400 Gb/sec (4X NDR)\n"), (LinkRate{4000, 4, "NDR"}));
}

TEST(SysfsRate, RejectsMalformedRates) {
    EXPECT_FALSE(parse_rate("fast\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (4X EDR\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (X EDR)\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (0X EDR)\n").ok());
    EXPECT_FALSE(parse_rate("2.25 Gb/sec (1X)\n").ok());
    EXPECT_FALSE(parse_rate("-100 Gb/sec (4X EDR)\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (4XEDR)\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (4X edr)\n").ok());
    EXPECT_FALSE(parse_rate("100 Gb/sec (4X EDR) junk\n").ok());
    expect_rejects_common_garbage(parse_rate);
}

TEST(SysfsCapMask, ParsesHex) {
    EXPECT_EQ(*parse_cap_mask("0x2651e84a\n"), 0x2651e84au);
    EXPECT_EQ(*parse_cap_mask("0x00010000\n"), 0x00010000u);
    EXPECT_FALSE(parse_cap_mask("0x2651e84a junk\n").ok());
    EXPECT_FALSE(parse_cap_mask("0x12651e84a\n").ok());
    EXPECT_FALSE(parse_cap_mask("2651e84a\n").ok());
    expect_rejects_common_garbage(parse_cap_mask);
}

TEST(SysfsNodeType, ParsesKernelNodeTypes) {
    EXPECT_EQ(*parse_node_type("1: CA\n"), (NodeType{1, "CA"}));
    EXPECT_EQ(*parse_node_type("2: switch\n"), (NodeType{2, "switch"}));
    EXPECT_EQ(*parse_node_type("3: router\n"), (NodeType{3, "router"}));
    EXPECT_EQ(*parse_node_type("4: RNIC\n"), (NodeType{4, "RNIC"}));
    EXPECT_EQ(*parse_node_type("6: usNIC UDP\n"), (NodeType{6, "usNIC UDP"}));
    EXPECT_EQ(*parse_node_type("9: <unknown>\n"), (NodeType{9, "<unknown>"}));
    EXPECT_FALSE(parse_node_type("1: switch\n").ok());
    EXPECT_FALSE(parse_node_type("9: CA\n").ok());
    EXPECT_FALSE(parse_node_type("CA\n").ok());
    expect_rejects_common_garbage(parse_node_type);
}

TEST(SysfsGuid, ParsesFourGroups) {
    EXPECT_EQ(*parse_guid("0002:c903:0000:1234\n"), 0x0002c90300001234ULL);
    EXPECT_EQ(*parse_guid("ffff:ffff:ffff:ffff\n"), ~uint64_t{0});
    EXPECT_FALSE(parse_guid("zz02:c903:0000:1234\n").ok());
    EXPECT_FALSE(parse_guid("0002:c903:0000:123\n").ok());
    EXPECT_FALSE(parse_guid("0002c9030000123400\n").ok());
    EXPECT_FALSE(parse_guid("0002-c903-0000-1234\n").ok());
    EXPECT_FALSE(parse_guid("0x0002c90300001234\n").ok());
    expect_rejects_common_garbage(parse_guid);
}

TEST(SysfsText, FirmwareBoardAndHcaType) {
    EXPECT_EQ(*parse_text_attribute("16.35.2000\n"), "16.35.2000");
    EXPECT_EQ(*parse_text_attribute("MT_0000000008\n"), "MT_0000000008");
    EXPECT_FALSE(parse_text_attribute("\n").ok());
    EXPECT_FALSE(parse_text_attribute("").ok());
    EXPECT_FALSE(parse_text_attribute("16.35\x01\n").ok());
    EXPECT_FALSE(parse_text_attribute("16.35\n2000\n").ok());
    EXPECT_FALSE(parse_text_attribute(std::string(300, 'x')).ok());
}

TEST(SysfsNodeDesc, KeepsSpacesAndLimitsTo64Bytes) {
    EXPECT_EQ(*parse_node_desc("node01 mlx5_0\n"), "node01 mlx5_0");
    EXPECT_EQ(*parse_node_desc("MT4119 ConnectX5   Mellanox Technologies\n"),
              "MT4119 ConnectX5   Mellanox Technologies");
    EXPECT_TRUE(parse_node_desc(std::string(64, 'n') + "\n").ok());
    EXPECT_EQ(parse_node_desc(std::string(65, 'n') + "\n").error().code, EOVERFLOW);
    EXPECT_EQ(parse_node_desc("").error().code, ENODATA);
    EXPECT_FALSE(parse_node_desc("a\nb\n").ok());
}

TEST(SysfsPKey, ParsesFourHexDigits) {
    EXPECT_EQ(*parse_pkey_entry("0xffff\n"), 0xffff);
    EXPECT_EQ(*parse_pkey_entry("0x0000\n"), 0x0000);
    EXPECT_EQ(*parse_pkey_entry("0x8001\n"), 0x8001);
    EXPECT_EQ(*parse_pkey_entry("0x0002\n"), 0x0002);
    EXPECT_FALSE(parse_pkey_entry("0xfff\n").ok());
    EXPECT_FALSE(parse_pkey_entry("0x10000\n").ok());
    EXPECT_FALSE(parse_pkey_entry("ffff\n").ok());
    EXPECT_FALSE(parse_pkey_entry("65535\n").ok());
    EXPECT_FALSE(parse_pkey_entry("0x8001\n0x8002\n").ok());
    EXPECT_FALSE(parse_pkey_entry("-0x001\n").ok());
    expect_rejects_common_garbage(parse_pkey_entry);
}

TEST(SysfsGid, ParsesFullFormAndDerivesThePortGuid) {
    auto g = parse_gid("fe80:0000:0000:0000:0002:c903:0000:1235\n");
    ASSERT_TRUE(g.ok());
    EXPECT_FALSE(g->is_zero());
    EXPECT_EQ(g->interface_id(), 0x0002c90300001235ULL);
    EXPECT_EQ(g->to_string(), "fe80:0000:0000:0000:0002:c903:0000:1235");
    EXPECT_EQ(parse_gid("FE80:0000:0000:0000:0002:C903:0000:1235\n")->to_string(),
              "fe80:0000:0000:0000:0002:c903:0000:1235");
    EXPECT_TRUE(parse_gid("0000:0000:0000:0000:0000:0000:0000:0000\n")->is_zero());
    EXPECT_FALSE(parse_gid("fe80::1\n").ok());
    EXPECT_FALSE(parse_gid("fe80:0000:0000:0000:0002:c903:0000:123g\n").ok());
    EXPECT_FALSE(parse_gid("fe80-0000:0000:0000:0002:c903:0000:1235\n").ok());
    expect_rejects_common_garbage(parse_gid);
}

TEST(SysfsCounter, ParsesDecimalUpTo64Bits) {
    EXPECT_EQ(*parse_counter("0\n"), 0u);
    EXPECT_EQ(*parse_counter("255\n"), 255u);
    EXPECT_EQ(*parse_counter("18446744073709551615\n"), ~uint64_t{0});
    EXPECT_EQ(*parse_counter("42"), 42u);
}

TEST(SysfsCounter, NoPmaIsAnErrorNotZero) {
    EXPECT_TRUE(is_no_pma("N/A (no PMA)\n"));
    EXPECT_FALSE(is_no_pma("0\n"));
    auto r = parse_counter("N/A (no PMA)\n");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("N/A (no PMA)"), std::string::npos);
    EXPECT_EQ(r.error().code, ENOTSUP);
}

TEST(SysfsCounter, AReadingIsAValueOrNotAvailableNeverZero) {
    EXPECT_EQ(parse_counter_reading("N/A (no PMA)\n")->value, std::nullopt);
    EXPECT_EQ(parse_counter_reading("N/A (no PMA)")->value, std::nullopt);
    EXPECT_EQ(parse_counter_reading("0\n")->value, 0u);
    EXPECT_EQ(parse_counter_reading("6825908347\n")->value, 6825908347ULL);
    // Only the kernel's own words: anything else that is no number is still an error.
    for (std::string_view bad : {"N/A\n", "n/a (no pma)\n", "N/A (no PMA) \n", "", "-1\n"}) {
        EXPECT_FALSE(parse_counter_reading(bad).ok()) << bad;
    }
    EXPECT_TRUE(is_unavailable_read(ENOSYS));
    EXPECT_TRUE(is_unavailable_read(EINVAL));
    EXPECT_FALSE(is_unavailable_read(EIO));
    EXPECT_FALSE(is_unavailable_read(EACCES));
    EXPECT_FALSE(is_unavailable_read(ENOENT));
}

TEST(SysfsCounter, RejectsNegativeOverflowJunkAndEmpty) {
    EXPECT_NE(parse_counter("-1\n").error().message.find("non-negative"), std::string::npos);
    EXPECT_EQ(parse_counter("18446744073709551616\n").error().code, ERANGE);
    EXPECT_EQ(parse_counter("123456789012345678901234\n").error().code, ERANGE);
    EXPECT_FALSE(parse_counter("12abc\n").ok());
    EXPECT_FALSE(parse_counter("+12\n").ok());
    EXPECT_FALSE(parse_counter("0x12\n").ok());
    EXPECT_FALSE(parse_counter("12 \n").ok());
    EXPECT_FALSE(parse_counter("1.5\n").ok());
    EXPECT_EQ(parse_counter("").error().code, ENODATA);
    expect_rejects_common_garbage(parse_counter);
}

TEST(SysfsTableIndex, ParsesKernelEntryNames) {
    EXPECT_EQ(*parse_table_index("0"), 0u);
    EXPECT_EQ(*parse_table_index("127"), 127u);
    EXPECT_FALSE(parse_table_index("007").ok());
    EXPECT_FALSE(parse_table_index("-1").ok());
    EXPECT_FALSE(parse_table_index("x").ok());
    EXPECT_FALSE(parse_table_index("").ok());
    EXPECT_FALSE(parse_table_index("1234567").ok());
}

TEST(SysfsParsers, GidAttributes) {
    EXPECT_EQ(*parse_gid_attr_type("IB/RoCE v1\n"), GidType::roce_v1);
    EXPECT_EQ(*parse_gid_attr_type("RoCE v2\n"), GidType::roce_v2);
    EXPECT_FALSE(parse_gid_attr_type("RoCE v3\n"));
    EXPECT_FALSE(parse_gid_attr_type(""));
    EXPECT_EQ(*parse_gid_attr_ndev("eth0.100\n"), "eth0.100");
    EXPECT_FALSE(parse_gid_attr_ndev("a/b\n"));
    EXPECT_FALSE(parse_gid_attr_ndev("sixteen-chars-xx\n"));
    EXPECT_FALSE(parse_gid_attr_ndev("\n"));
    EXPECT_FALSE(parse_gid_attr_ndev("two words\n"));
}

}  // namespace
}  // namespace rdmadiag::sysfs
