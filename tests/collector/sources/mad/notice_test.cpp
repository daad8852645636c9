#include "collector/sources/mad/notice.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/mad/trap_notices.hpp"

namespace rdmadiag::mad {
namespace {

TEST(Notice, Trap128AsASwitchSendsIt) {
    // Generic, Urgent, ProducerType switch, TrapNumber 128, IssuerLID 3, toggle 1 count 2,
    // DataDetails: LIDaddress 3; IssuerGID fe80::2:c903:0:1.
    std::array<uint8_t, kNoticeSize> bytes{0x81, 0x00, 0x00, 0x02, 0x00, 0x80,
                                           0x00, 0x03, 0x80, 0x02, 0x00, 0x03};
    const uint8_t gid[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x02, 0xc9, 0x03, 0, 0, 0, 0x01};
    std::copy(std::begin(gid), std::end(gid), bytes.begin() + 64);
    auto n = decode_notice(bytes);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_TRUE(n->generic);
    EXPECT_EQ(n->type, 1);
    EXPECT_EQ(n->producer_or_vendor, 2u);
    EXPECT_EQ(n->trap_number(), 128);
    EXPECT_EQ(n->issuer_lid, 3);
    EXPECT_TRUE(n->toggle);
    EXPECT_EQ(n->count, 2);
    EXPECT_EQ(n->issuer_gid[15], 0x01);
    auto subject = notice_subject(*n);
    EXPECT_EQ(subject.lid, 3);
    EXPECT_FALSE(subject.port_guid);
}

TEST(Notice, Trap64NamesThePortGuidOfItsGid) {
    auto bytes = test::generic_notice(4, 4, trap::gid_in_service, 1);
    // DataDetails: 6 reserved bytes, then the GID: subnet prefix, interface ID.
    put64(bytes, 16, 0xfe80000000000000ull);
    put64(bytes, 24, 0x0002c90300001234ull);
    auto n = decode_notice(bytes);
    ASSERT_TRUE(n.ok());
    auto subject = notice_subject(*n);
    EXPECT_EQ(subject.port_guid, 0x0002c90300001234ull);
    EXPECT_FALSE(subject.lid);
}

TEST(Notice, Trap144CarriesLidCapabilityMaskAndChangeFlags) {
    auto n = decode_notice(test::local_changes_notice(9, 0x02510868, 0x0001));
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(notice_subject(*n).lid, 9);
    auto c = local_changes(*n);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->lid, 9);
    EXPECT_TRUE(c->other_local_changes);
    EXPECT_EQ(c->capability_mask, 0x02510868u);
    EXPECT_EQ(c->change_flags, 0x0001);
    EXPECT_FALSE(local_changes(*decode_notice(test::link_state_notice(3))));
}

TEST(Notice, AVendorNoticeHasNoTrapNumberAndNamesNothing) {
    std::array<uint8_t, kNoticeSize> bytes{};
    bytes[0] = 0x04;       // not generic, informational
    put16(bytes, 4, 128);  // DeviceID, not a trap number
    put16(bytes, 10, 7);
    auto n = decode_notice(bytes);
    ASSERT_TRUE(n.ok());
    EXPECT_FALSE(n->trap_number());
    EXPECT_FALSE(notice_subject(*n).lid);
}

TEST(Notice, AShortNoticeIsAnErrorThatSaysSo) {
    auto full = test::link_state_notice(3);
    for (size_t size : {size_t{0}, size_t{10}, size_t{79}}) {
        auto n = decode_notice(Bytes(full.data(), size));
        ASSERT_FALSE(n.ok()) << size;
        EXPECT_NE(n.error().message.find("80 bytes"), std::string::npos) << n.error().message;
    }
}

}  // namespace
}  // namespace rdmadiag::mad
