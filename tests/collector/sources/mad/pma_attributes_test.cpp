#include "collector/sources/mad/pma_attributes.hpp"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <map>
#include <string>

#include "tests/collector/sources/mad/captured_mads.hpp"

namespace rdmadiag::mad {
namespace {

std::map<std::string, PmaCounter> by_name(const std::vector<PmaCounter>& v) {
    std::map<std::string, PmaCounter> m;
    for (const auto& c : v) m[std::string(c.name)] = c;
    return m;
}

TEST(PmaAttributes, PortCountersFromIbsimMatchLibibmad) {
    std::vector<uint8_t> data(captured::kPortCountersLid5Port1.begin() + 64,
                              captured::kPortCountersLid5Port1.end());
    auto counters = decode_port_counters(data);
    ASSERT_TRUE(counters.ok());
    auto c = by_name(*counters);
    EXPECT_EQ(c["port_rcv_constraint_errors"].value, 5u) << "set with PerformanceSet";
    EXPECT_EQ(c["port_rcv_constraint_errors"].width, 8);
    EXPECT_EQ(c["port_rcv_constraint_errors"].value,
              mad_get_field(data.data(), 0, IB_PC_ERR_RCVCONSTR_F));
    EXPECT_EQ(c["port_xmit_constraint_errors"].value,
              mad_get_field(data.data(), 0, IB_PC_ERR_XMTCONSTR_F));
    EXPECT_EQ(c["symbol_error"].value, mad_get_field(data.data(), 0, IB_PC_ERR_SYM_F));
    EXPECT_EQ(c["port_xmit_data"].value, mad_get_field(data.data(), 0, IB_PC_XMT_BYTES_F));
    EXPECT_EQ(c["port_rcv_packets"].value, mad_get_field(data.data(), 0, IB_PC_RCV_PKTS_F));
    EXPECT_GT(c["port_xmit_packets"].value, 0u);
}

TEST(PmaAttributes, EveryPortCountersFieldAgainstLibibmadEncoder) {
    std::vector<uint8_t> data(192, 0);
    const std::pair<const char*, MAD_FIELDS> fields[] = {
        {"symbol_error", IB_PC_ERR_SYM_F},
        {"link_error_recovery", IB_PC_LINK_RECOVERS_F},
        {"link_downed", IB_PC_LINK_DOWNED_F},
        {"port_rcv_errors", IB_PC_ERR_RCV_F},
        {"port_rcv_remote_physical_errors", IB_PC_ERR_PHYSRCV_F},
        {"port_rcv_switch_relay_errors", IB_PC_ERR_SWITCH_REL_F},
        {"port_xmit_discards", IB_PC_XMT_DISCARDS_F},
        {"port_xmit_constraint_errors", IB_PC_ERR_XMTCONSTR_F},
        {"port_rcv_constraint_errors", IB_PC_ERR_RCVCONSTR_F},
        {"local_link_integrity_errors", IB_PC_ERR_LOCALINTEG_F},
        {"excessive_buffer_overrun_errors", IB_PC_ERR_EXCESS_OVR_F},
        {"VL15_dropped", IB_PC_VL15_DROPPED_F},
        {"port_xmit_data", IB_PC_XMT_BYTES_F},
        {"port_rcv_data", IB_PC_RCV_BYTES_F},
        {"port_xmit_packets", IB_PC_XMT_PKTS_F},
        {"port_rcv_packets", IB_PC_RCV_PKTS_F},
        {"port_xmit_wait", IB_PC_XMT_WAIT_F},
    };
    uint32_t v = 1;
    std::map<std::string, uint32_t> expect;
    for (auto [name, field] : fields) {
        // Distinct values that fit even the 4-bit fields.
        uint32_t value = (v++ % 15) + 1;
        mad_set_field(data.data(), 0, field, value);
        expect[name] = value;
    }
    auto counters = decode_port_counters(data);
    ASSERT_TRUE(counters.ok());
    auto c = by_name(*counters);
    ASSERT_EQ(c.size(), expect.size());
    for (auto& [name, value] : expect) EXPECT_EQ(c[name].value, value) << name;
}

TEST(PmaAttributes, WidthsFollowTheSpec) {
    std::vector<uint8_t> data(192, 0xff);
    auto counters = decode_port_counters(data);
    ASSERT_TRUE(counters.ok());
    for (const auto& c : *counters) EXPECT_EQ(c.value, (uint64_t{1} << c.width) - 1) << c.name;
}

TEST(PmaAttributes, ExtendedCountersAre64Bit) {
    std::vector<uint8_t> data(192, 0);
    mad_set_field64(data.data(), 0, IB_PC_EXT_XMT_BYTES_F, 0x123456789abcull);
    mad_set_field64(data.data(), 0, IB_PC_EXT_RCV_MPKTS_F, 42);
    auto counters = decode_port_counters_ext(data);
    ASSERT_TRUE(counters.ok());
    auto c = by_name(*counters);
    EXPECT_EQ(c["port_xmit_data"].value, 0x123456789abcull);
    EXPECT_EQ(c["port_xmit_data"].width, 64);
    EXPECT_EQ(c["multicast_rcv_packets"].value, 42u);
    auto noietf = decode_port_counters_ext(data, true);
    ASSERT_TRUE(noietf.ok());
    EXPECT_EQ(noietf->size(), 4u);
}

TEST(PmaAttributes, ClassPortInfoCapabilities) {
    std::vector<uint8_t> data(192, 0);
    mad_set_field(data.data(), 0, IB_CPI_CAPMASK_F, 0x1200);
    mad_set_field(data.data(), 0, IB_CPI_RESP_TIME_VALUE_F, 18);
    auto info = decode_pma_class_port_info(data);
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info->capability_mask, 0x1200);
    EXPECT_EQ(info->resp_time_value, 18);
    EXPECT_TRUE(has_port_counters_ext(*info));
    EXPECT_TRUE(info->capability_mask & kPmaXmitWait);
}

TEST(PmaAttributes, ShortDataIsAnError) {
    std::vector<uint8_t> data(20, 0);
    EXPECT_FALSE(decode_port_counters(data).ok());
    EXPECT_FALSE(decode_port_counters_ext(data).ok());
    EXPECT_FALSE(decode_pma_class_port_info(std::vector<uint8_t>(4, 0)).ok());
}

}  // namespace
}  // namespace rdmadiag::mad
