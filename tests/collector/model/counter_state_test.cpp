#include "collector/model/counter_state.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TimePoint at(int s) {
    return TimePoint{std::chrono::seconds(s)};
}

TEST(CounterState, TrackFormKeepsEveryField) {
    CounterState s{.name = "port_rcv_constraint_errors",
                   .kind = CounterKind::portinfo,
                   .width = 8,
                   .lower_bound = true,
                   .saturated = true,
                   .resets = 3,
                   .raw = 255,
                   .total = 1000,
                   .wraps = 2,
                   .saturations = 4,
                   .updated = at(9),
                   .last_increase = at(8),
                   .saturated_since = at(7),
                   .last_reset = at(5)};
    const CounterTrack t = to_counter_track(s, 42);
    EXPECT_EQ(t.name_id, 42u);
    EXPECT_EQ(to_counter_state(t, s.name), s);
}

TEST(CounterState, AbsentMomentsStayAbsent) {
    CounterState s{.name = "x", .raw = 1, .total = 1, .updated = at(1)};
    const CounterTrack t = to_counter_track(s);
    EXPECT_FALSE(t.saturated_since().has_value());
    EXPECT_FALSE(t.last_reset().has_value());
    EXPECT_EQ(to_counter_state(t, "x"), s);
}

TEST(CounterState, AMomentThatNeverHappenedIsNotATime) {
    CounterState s;
    EXPECT_FALSE(s.saturated_since.has_value());
    s.saturated_since = at(0);  // the epoch is a moment like any other
    EXPECT_TRUE(s.saturated_since.has_value());
    EXPECT_EQ(s.saturated_since, at(0));
    s.saturated_since = std::nullopt;
    EXPECT_NE(s.saturated_since, at(0));
    EXPECT_EQ(std::optional<TimePoint>(s.saturated_since), std::nullopt);
}

}  // namespace
}  // namespace rdmadiag
