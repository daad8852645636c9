#include "collector/sources/mad/sa_records.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/mad/captured_mads.hpp"

namespace rdmadiag::mad {
namespace {

TEST(SaRecords, NodeRecordWrapsNodeInfoAndDescription) {
    std::vector<uint8_t> r(kNodeRecordSize, 0);
    put16(r, 0, 2);
    std::copy(captured::kNodeInfoSwitch1.begin() + 64, captured::kNodeInfoSwitch1.begin() + 64 + 40,
              r.begin() + 4);
    const char desc[] = "Switch1";
    std::copy(desc, desc + 7, r.begin() + 44);
    auto rec = decode_node_record(r);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    EXPECT_EQ(rec->lid, 2);
    EXPECT_EQ(rec->info.node_guid, 0x200000u);
    EXPECT_EQ(rec->description, "Switch1");
}

TEST(SaRecords, PortInfoRecord) {
    std::vector<uint8_t> r(kPortInfoRecordSize, 0);
    put16(r, 0, 5);
    r[2] = 1;
    std::copy(captured::kPortInfoLid5Port1.begin() + 64, captured::kPortInfoLid5Port1.begin() + 128,
              r.begin() + 4);
    auto rec = decode_port_info_record(r);
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->endport_lid, 5);
    EXPECT_EQ(rec->port_num, 1);
    EXPECT_EQ(rec->info.lid, 5);
}

TEST(SaRecords, PKeyTableRecordRoundTripsItsTemplate) {
    auto r = pkey_table_record_template(7, 1, 3);
    ASSERT_EQ(r.size(), kPKeyTableRecordSize);
    put16(r, 8, 0xffff);
    put16(r, 8 + 2 * 31, 0x8005);
    auto rec = decode_pkey_table_record(r);
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->lid, 7);
    EXPECT_EQ(rec->block, 1);
    EXPECT_EQ(rec->port_num, 3);
    EXPECT_EQ(rec->keys.front(), 0xffff);
    EXPECT_EQ(rec->keys.back(), 0x8005);
}

TEST(SaRecords, LinkRecordNamesBothEnds) {
    // A switch at LID 3, its port 4, cabled to port 1 of the CA port at LID 0x107; padded to 8.
    const std::vector<uint8_t> r{0x00, 0x03, 0x04, 0x01, 0x01, 0x07, 0x00, 0x00};
    auto rec = decode_link_record(r);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    EXPECT_EQ(*rec, (LinkRecord{3, 4, 1, 0x107}));
}

TEST(SaRecords, PortInfoRecordTemplateNamesTheEndPort) {
    auto t = port_info_record_template(0x107, 2);
    ASSERT_EQ(t.size(), kPortInfoRecordSize);
    EXPECT_EQ(get16(t, 0), 0x107);
    EXPECT_EQ(t[2], 2);
    // The SA answers with the port's PortInfo after the 4-byte record ID: GidPrefix at its
    // offset 8.
    put64(t, 4 + 8, 0xfec0000000000001ull);
    auto rec = decode_port_info_record(t);
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->endport_lid, 0x107);
    EXPECT_EQ(rec->port_num, 2);
    EXPECT_EQ(rec->info.gid_prefix, 0xfec0000000000001ull);
}

TEST(SaRecords, GuidInfoRecordRoundTripsItsTemplate) {
    // LID, BlockNum, a reserved byte and four reserved bytes, then the block (IBA 15.2.5.18,
    // libibmad's IB_SA_GIR_* fields: Guid0 at bit 64).
    auto r = guid_info_record_template(0x22, 3);
    ASSERT_EQ(r.size(), kGuidInfoRecordSize);
    EXPECT_EQ(get16(r, 0), 0x22);
    EXPECT_EQ(r[2], 3);
    put64(r, 8, 0x0002c90300001235ull);
    put64(r, 8 + 7 * 8, 0x0002c9030000beefull);
    r[3] = 0xff, r[4] = 0xff;  // reserved: ignored
    auto rec = decode_guid_info_record(r);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    EXPECT_EQ(rec->lid, 0x22);
    EXPECT_EQ(rec->block, 3);
    EXPECT_EQ(rec->guids[0], 0x0002c90300001235ull);
    EXPECT_EQ(rec->guids[1], 0u);
    EXPECT_EQ(rec->guids[7], 0x0002c9030000beefull);
}

TEST(SaRecords, ShortRecordsAreErrors) {
    std::vector<uint8_t> r(20, 0);
    EXPECT_FALSE(decode_node_record(r).ok());
    EXPECT_FALSE(decode_port_info_record(r).ok());
    EXPECT_FALSE(decode_pkey_table_record(r).ok());
    EXPECT_FALSE(decode_link_record(std::vector<uint8_t>(5, 0)).ok());
    EXPECT_FALSE(decode_guid_info_record(r).ok());
    EXPECT_FALSE(decode_guid_info_record(std::vector<uint8_t>(kGuidInfoRecordSize - 1, 0)).ok());
}

}  // namespace
}  // namespace rdmadiag::mad
