#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kCounterSaturated = "pkey.counter_saturated";

TEST(CounterSaturated, EightBitConstraintCounterAtMaximumIsFlagged) {
    test::PKeyScenario s;
    s.counter_value(0, "port_rcv_constraint_errors", 250, 8);
    EXPECT_EQ(s.active(kCounterSaturated), nullptr);
    s.counter_value(1, "port_rcv_constraint_errors", 255, 8);
    const Finding* f = s.active(kCounterSaturated);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(1));
    EXPECT_NE(f->evidence.find("port_rcv_constraint_errors is saturated at 255 (8-bit)"),
              std::string::npos)
        << f->evidence;
    EXPECT_NE(f->evidence.find("cannot be seen"), std::string::npos);
    // Staying at 255 is not "no new violations": the finding stays.
    s.counter_value(2, "port_rcv_constraint_errors", 255, 8);
    EXPECT_NE(s.active(kCounterSaturated), nullptr);
    const auto* c = s.engine().inventory().counter(PortRef{"mlx5_0", 1}, CounterKind::pma,
                                                   "port_rcv_constraint_errors");
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(c->saturated);
    EXPECT_TRUE(c->lower_bound);
    // Someone clears the counters.
    s.counter_value(3, "port_rcv_constraint_errors", 0, 8);
    EXPECT_EQ(s.active(kCounterSaturated), nullptr);
    EXPECT_NE(s.cleared(kCounterSaturated), nullptr);
    EXPECT_EQ(c->resets, 1u);
    EXPECT_EQ(c->total, 255u);
}

TEST(CounterSaturated, SaturatedCounterSuppressesNothingSilently) {
    // A change while the counter is saturated: violations_after_change cannot fire, and the
    // saturated finding says why.
    test::PKeyScenario s;
    s.counter_value(0, "port_xmit_constraint_errors", 255, 8);
    s.table(0, table_of({0x8001}));
    s.table(5, table_of({0x0001}));
    s.counter_value(6, "port_xmit_constraint_errors", 255, 8);
    EXPECT_EQ(s.active("pkey.violations_after_change"), nullptr);
    const Finding* f = s.active(kCounterSaturated);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->advice.find("violations_after_change cannot fire"), std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
