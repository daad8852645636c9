#include "collector/sources/mad/mad_header.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/mad/captured_mads.hpp"

namespace rdmadiag::mad {
namespace {

TEST(MadHeader, LidRoutedSmpRequest) {
    auto mad = build_lid_smp({Method::get, attr::pkey_table, 0x30001, 0}, 0x1234);
    auto h = parse_header(mad);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->mgmt_class, 0x01);
    EXPECT_EQ(h->method, 0x01);
    EXPECT_EQ(h->tid, 0x1234u);
    EXPECT_EQ(h->attr_id, 0x16);
    EXPECT_EQ(h->attr_mod, 0x30001u);
}

TEST(MadHeader, DirectedRouteSmpCarriesItsPath) {
    auto mad = build_dr_smp({Method::get, attr::node_info, 0, 0}, DrPath{1, 11, 4}, 7);
    ASSERT_TRUE(mad.ok());
    EXPECT_EQ((*mad)[1], 0x81);
    EXPECT_EQ((*mad)[6], 0);  // hop pointer
    EXPECT_EQ((*mad)[7], 3);  // hop count
    EXPECT_EQ(get16(*mad, 32), 0xffff);
    EXPECT_EQ(get16(*mad, 34), 0xffff);
    EXPECT_EQ((*mad)[129], 1);
    EXPECT_EQ((*mad)[130], 11);
    EXPECT_EQ((*mad)[131], 4);
    EXPECT_FALSE(build_dr_smp({}, DrPath(64, 1), 1).ok());
}

TEST(MadHeader, DirectedRouteResponseStatusIgnoresDirectionBit) {
    auto mad = build_dr_smp({Method::get, attr::node_info, 0, 0}, DrPath{}, 7).value();
    mad[3] = 0x81;
    mad[4] = 0x80;  // D bit
    auto h = check_response(mad);
    ASSERT_TRUE(h.ok()) << h.error().message;
    EXPECT_TRUE(h->direction);
    mad[5] = 0x1c;  // invalid attribute/modifier
    auto bad = check_response(mad);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("invalid attribute"), std::string::npos);
}

TEST(MadHeader, CapturedResponseChecksOut) {
    auto h = check_response(captured::kPortInfoLid5Port1);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->attr_id, attr::port_info);
    EXPECT_EQ(h->attr_mod, 1u);
    EXPECT_EQ(h->tid & 0xffffffff, 7u);
}

TEST(MadHeader, RequestsShortOrErrorStatusAreRejected) {
    EXPECT_FALSE(parse_header(std::vector<uint8_t>(10, 0)).ok());
    auto req = build_lid_smp({Method::get, attr::port_info, 1, 0}, 1);
    EXPECT_FALSE(check_response(req).ok()) << "a Get is not a response";
    auto resp = captured::kPortInfoLid5Port1;
    resp[4] = 0x00, resp[5] = 0x0c;  // method/attribute combination not supported
    auto r = check_response(resp);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("0x000c"), std::string::npos);
    resp[0] = 2;
    EXPECT_FALSE(check_response(resp).ok());
    EXPECT_FALSE(smp_data(std::vector<uint8_t>(100, 0)).ok());
    EXPECT_FALSE(pma_data(std::vector<uint8_t>(200, 0)).ok());
}

TEST(MadHeader, PmaRequestSelectsPort) {
    std::vector<uint8_t> sel{0, 3};
    auto mad = build_pma_get(attr::port_counters, 0, sel, 9);
    EXPECT_EQ(mad[1], 0x04);
    EXPECT_EQ(mad[64 + 1], 3);
    EXPECT_EQ(get16(mad, 16), 0x12);
}

TEST(MadHeader, SaQueryCarriesSmKeyAndComponentMask) {
    std::vector<uint8_t> rec{0, 5, 0, 1, 2};
    auto mad = build_sa_query(Method::get, attr::pkey_table_record, 0x7, rec, 0xabcdef, 3);
    EXPECT_EQ(mad[1], 0x03);
    EXPECT_EQ(mad[2], 2);
    EXPECT_EQ(get64(mad, 36), 0xabcdefu);
    EXPECT_EQ(get64(mad, 48), 0x7u);
    EXPECT_EQ(get16(mad, 56), 5);
    EXPECT_EQ(mad[56 + 4], 2);
}

std::vector<uint8_t> sa_response(uint16_t offset_units, size_t records, size_t rec_size,
                                 size_t total) {
    std::vector<uint8_t> mad(total, 0);
    mad[0] = 1, mad[1] = 3, mad[2] = 2, mad[3] = 0x92;
    put16(mad, 44, offset_units);
    for (size_t r = 0; r < records; ++r) {
        size_t off = 56 + r * offset_units * 8;
        for (size_t i = 0; i < rec_size && off + i < total; ++i)
            mad[off + i] = static_cast<uint8_t>(r + 1);
    }
    return mad;
}

TEST(MadHeader, SaRecordsAreSplitByAttributeOffset) {
    auto mad = sa_response(9, 3, 72, 56 + 3 * 72);
    auto recs = sa_records(mad, 72);
    ASSERT_TRUE(recs.ok()) << recs.error().message;
    ASSERT_EQ(recs->size(), 3u);
    EXPECT_EQ((*recs)[2][0], 3);
}

TEST(MadHeader, SaTableCutShortIsAnError) {
    // One 256-byte MAD holding one whole 112-byte NodeRecord and the start of a second.
    auto mad = sa_response(14, 2, 108, 256);
    auto recs = sa_records(mad, 108);
    ASSERT_FALSE(recs.ok());
    EXPECT_NE(recs.error().message.find("cut short"), std::string::npos);
    // The same with zero padding after the only record is fine.
    auto one = sa_response(14, 1, 108, 256);
    auto ok = sa_records(one, 108);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->size(), 1u);
    // A first RMPP segment without the last flag in a lone MAD is missing its tail.
    one[25] = 1, one[26] = 0x3;
    EXPECT_FALSE(sa_records(one, 108).ok());
    // No records: offset 0.
    EXPECT_EQ(sa_records(sa_response(0, 0, 0, 56), 72)->size(), 0u);
    EXPECT_FALSE(sa_records(std::vector<uint8_t>(30, 0), 72).ok());
    EXPECT_FALSE(sa_records(sa_response(2, 1, 16, 100), 72).ok())
        << "spacing below the record size";
}

}  // namespace
}  // namespace rdmadiag::mad
