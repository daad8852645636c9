#include "collector/model/rdma_enums.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TEST(RdmaEnums, EventNamesRoundTripAndIgnoreCase) {
    for (int i = 0; i <= static_cast<int>(AsyncEventType::unknown); ++i) {
        auto t = static_cast<AsyncEventType>(i);
        EXPECT_EQ(parse_async_event_type(to_string(t)), t);
    }
    EXPECT_EQ(parse_async_event_type("pkey_change"), AsyncEventType::pkey_change);
    EXPECT_FALSE(parse_async_event_type("PKEY_CHANGED").has_value());
    EXPECT_TRUE(is_port_event(AsyncEventType::pkey_change));
    EXPECT_FALSE(is_port_event(AsyncEventType::qp_fatal));
}

TEST(RdmaEnums, WcStatusCodesMatchVerbs) {
    EXPECT_EQ(wc_status_from_code(5), WcStatus::wr_flush_err);
    EXPECT_EQ(wc_status_from_code(6), WcStatus::mw_bind_err);
    EXPECT_EQ(to_string(WcStatus::mw_bind_err), "MW_BIND_ERR");
    EXPECT_FALSE(wc_status_from_code(22).has_value());
    EXPECT_EQ(parse_wc_status("WR_FLUSH_ERR"), WcStatus::wr_flush_err);
}

TEST(RdmaEnums, PortStatesAndLinkLayers) {
    EXPECT_EQ(parse_port_state("ACTIVE"), PortState::active);
    EXPECT_EQ(to_string(PortState::down), "DOWN");
    EXPECT_EQ(parse_link_layer("InfiniBand"), LinkLayer::infiniband);
    EXPECT_EQ(parse_link_layer("Ethernet"), LinkLayer::ethernet);
    EXPECT_EQ(parse_mr_op("LOCAL_INV"), MrOp::local_inv);
    EXPECT_EQ(parse_transport("iwarp"), Transport::iwarp);
}

}  // namespace
}  // namespace rdmadiag
