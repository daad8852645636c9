#include "collector/engine/counter_tracker.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag {
namespace {

using test::at;

TEST(CounterTracker, TotalFollowsIncreases) {
    CounterState s;
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 5), at(1), true),
              CounterChange::first);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 9), at(2), false),
              CounterChange::increased);
    EXPECT_EQ(s.total, 9u);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 9), at(3), false),
              CounterChange::unchanged);
    EXPECT_EQ(s.last_increase, at(2));
}

TEST(CounterTracker, ResetKeepsTotalMonotonic) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "x", 100, 16), at(1), true);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 3, 16), at(2), false),
              CounterChange::reset);
    EXPECT_EQ(s.total, 103u);
    EXPECT_EQ(s.resets, 1u);
}

TEST(CounterTracker, SixteenBitWrapIsCountedAcrossTheBoundary) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "x", 65530, 16), at(1), true);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 4, 16), at(2), false),
              CounterChange::wrapped);
    EXPECT_EQ(s.total, 65530u + 10u);
    EXPECT_EQ(s.wraps, 1u);
}

TEST(CounterTracker, EightBitSaturationIsFlagged) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "port_rcv_constraint_errors", 250, 8), at(1),
                         true);
    EXPECT_FALSE(s.saturated);
    apply_counter_sample(s, test::counter("d", 1, "port_rcv_constraint_errors", 255, 8), at(2),
                         false);
    EXPECT_TRUE(s.saturated);
    // Cleared by someone (perfquery -R): a reset, not a wrap, because it was saturated.
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "port_rcv_constraint_errors", 0, 8),
                                   at(3), false),
              CounterChange::reset);
    EXPECT_FALSE(s.saturated);
    EXPECT_EQ(s.total, 255u);
}

}  // namespace
}  // namespace rdmadiag
