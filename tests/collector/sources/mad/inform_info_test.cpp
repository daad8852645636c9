#include "collector/sources/mad/inform_info.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::mad {
namespace {

TEST(InformInfo, SubscriptionToTrap128ForEveryPort) {
    const MadRequest req = inform_info_request(1, 128, true, 0);
    EXPECT_EQ(req.agent, Agent::sa);
    EXPECT_EQ(req.addr, (MadAddress{1, 1, kGsiQkey, 0}));
    const auto& m = req.mad;
    // Common header: BaseVersion 1, SA class 3 version 2, SubnAdmSet (2), attribute InformInfo.
    EXPECT_EQ(m[0], 1);
    EXPECT_EQ(m[1], 0x03);
    EXPECT_EQ(m[2], 2);
    EXPECT_EQ(m[3], 0x02);
    EXPECT_EQ(get16(m, 16), 0x0003);
    EXPECT_EQ(get64(m, 36), 0u);  // SM_Key: untrusted
    EXPECT_EQ(get64(m, 48), 0u);  // no component mask for a Set
    // The record at byte 56, laid out as InformInfo is.
    const std::array<uint8_t, kInformInfoSize> golden = {
        0,    0,    0,    0,    0, 0, 0, 0,
        0,    0,    0,    0,    0, 0, 0, 0,  // GID: zero, the LID range selects
        0xff, 0xff,                          // LIDRangeBegin: every port
        0x00, 0x00,                          // LIDRangeEnd
        0x00, 0x00,                          // reserved
        0x01,                                // IsGeneric
        0x01,                                // Subscribe
        0xff, 0xff,                          // Type: any
        0x00, 0x80,                          // TrapNumber 128
        0x00, 0x00, 0x01, 0x12,              // QPN 1, RespTimeValue 18
        0x00,                                // reserved
        0xff, 0xff, 0xff};                   // ProducerType: any
    EXPECT_TRUE(std::equal(golden.begin(), golden.end(), m.begin() + 56));
}

TEST(InformInfo, TheCancellationDiffersOnlyInSubscribe) {
    const auto on = inform_info_request(4, 144, true, 0x1).mad;
    const auto off = inform_info_request(4, 144, false, 0x1).mad;
    EXPECT_EQ(get64(off, 36), 0x1u);
    for (size_t i = 0; i < on.size(); ++i) {
        if (i == 56 + 23) {
            EXPECT_EQ(on[i], 1);
            EXPECT_EQ(off[i], 0);
        } else {
            EXPECT_EQ(on[i], off[i]) << "byte " << i;
        }
    }
}

TEST(InformInfo, DecodesWhatItEncodes) {
    InformInfo info;
    info.trap_number = 64;
    info.subscribe = false;
    info.qpn = 0x123456;
    info.resp_time_value = 3;
    auto back = decode_inform_info(encode_inform_info(info));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, info);
    EXPECT_FALSE(decode_inform_info(std::vector<uint8_t>(35, 0)).ok());
}

}  // namespace
}  // namespace rdmadiag::mad
