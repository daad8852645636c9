#include "collector/model/counter.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TEST(Counter, WidthsFollowThePortCountersLayout) {
    EXPECT_EQ(counter_width(CounterKind::pma, "port_rcv_constraint_errors"), 8);
    EXPECT_EQ(counter_width(CounterKind::pma, "port_xmit_constraint_errors"), 8);
    EXPECT_EQ(counter_width(CounterKind::pma, "symbol_error"), 16);
    EXPECT_EQ(counter_width(CounterKind::pma, "link_downed"), 8);
    EXPECT_EQ(counter_width(CounterKind::pma, "VL15_dropped"), 16);
    EXPECT_EQ(counter_width(CounterKind::pma, "port_xmit_wait"), 32);
    EXPECT_EQ(counter_width(CounterKind::pma, "port_xmit_data"), 64);
    EXPECT_EQ(counter_width(CounterKind::portinfo, "p_key_violations"), 16);
    EXPECT_EQ(counter_width(CounterKind::hw, "rx_write_requests"), 64);
    EXPECT_EQ(counter_width(CounterKind::pma, "something_new"), 64);
}

TEST(Counter, MaxOfWidth) {
    EXPECT_EQ(counter_max(8), 255u);
    EXPECT_EQ(counter_max(16), 65535u);
    EXPECT_EQ(counter_max(64), ~uint64_t{0});
}

}  // namespace
}  // namespace rdmadiag
