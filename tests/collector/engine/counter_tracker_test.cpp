#include "collector/engine/counter_tracker.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine {
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

TEST(CounterTracker, SaturationIsRememberedWithItsStart) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "port_xmit_constraint_errors", 255, 8), at(1),
                         true);
    EXPECT_TRUE(s.saturated);
    EXPECT_EQ(s.saturated_since, at(1));
    EXPECT_EQ(s.saturations, 1u);
    EXPECT_TRUE(s.lower_bound);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "port_xmit_constraint_errors", 255, 8),
                                   at(2), false),
              CounterChange::unchanged);
    EXPECT_EQ(s.saturated_since, at(1));
    EXPECT_EQ(s.saturations, 1u);
}

TEST(CounterTracker, ResetIsDatedAndMakesTheTotalALowerBound) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "symbol_error", 1000, 16), at(1), true);
    EXPECT_FALSE(s.lower_bound);
    apply_counter_sample(s, test::counter("d", 1, "symbol_error", 7, 16), at(5), false);
    EXPECT_EQ(s.last_reset, at(5));
    EXPECT_TRUE(s.lower_bound);
    EXPECT_EQ(s.last_increase, at(5));
    EXPECT_EQ(s.total, 1007u);
}

TEST(CounterTracker, SixtyFourBitDecreaseIsAlwaysAReset) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "port_xmit_data", ~uint64_t{0} - 1), at(1), true);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "port_xmit_data", 5), at(2), false),
              CounterChange::reset);
}

TEST(CounterTracker, WidthComesFromTheNameWhenTheSampleGivesNone) {
    auto sample = test::counter("d", 1, "port_rcv_constraint_errors", 255, 0);
    EXPECT_EQ(effective_counter_width(sample), 8);
    CounterState s;
    apply_counter_sample(s, sample, at(1), true);
    EXPECT_TRUE(s.saturated);
}

TEST(CounterTracker, ValueWiderThanClaimedWidensInsteadOfBeingCut) {
    auto sample = test::counter("d", 1, "x", 70000, 16);
    EXPECT_EQ(effective_counter_width(sample), 64);
    CounterState s;
    apply_counter_sample(s, sample, at(1), true);
    EXPECT_EQ(s.raw, 70000u);
    EXPECT_EQ(s.total, 70000u);
}

TEST(CounterTracker, WidthChangeRebasesWithoutCounting) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "x", 60000, 16), at(1), true);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 100, 32), at(2), false),
              CounterChange::rebased);
    EXPECT_EQ(s.total, 60000u);
    EXPECT_EQ(apply_counter_sample(s, test::counter("d", 1, "x", 150, 32), at(3), false),
              CounterChange::increased);
    EXPECT_EQ(s.total, 60050u);
}

TEST(CounterTracker, TotalNeverGoesBackwards) {
    // A deterministic jumble of rises, wraps, resets and saturation on an 8-bit counter.
    CounterState s;
    uint64_t previous = 0;
    uint32_t x = 12345;
    apply_counter_sample(s, test::counter("d", 1, "c", 0, 8), at(0), true);
    for (int i = 1; i < 5000; ++i) {
        x = x * 1103515245u + 12345u;
        const uint64_t value = (x >> 16) % 256;
        apply_counter_sample(s, test::counter("d", 1, "c", value, 8), at(i), false);
        ASSERT_GE(s.total, previous) << "step " << i;
        previous = s.total;
    }
}

TEST(CounterTracker, TotalSaturatesInsteadOfOverflowing) {
    CounterState s;
    apply_counter_sample(s, test::counter("d", 1, "c", ~uint64_t{0} - 10), at(0), true);
    apply_counter_sample(s, test::counter("d", 1, "c", 5), at(1), false);  // reset
    apply_counter_sample(s, test::counter("d", 1, "c", ~uint64_t{0}), at(2), false);
    EXPECT_EQ(s.total, ~uint64_t{0});
}

}  // namespace
}  // namespace rdmadiag::engine
