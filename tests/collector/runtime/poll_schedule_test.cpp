#include "collector/runtime/poll_schedule.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::runtime {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(PollSchedule, FirstRunIsDueAtStart) {
    PollSchedule s;
    TimePoint t{seconds(100)};
    s.add(seconds(1), t);
    EXPECT_EQ(s.next_due(), t);
    EXPECT_EQ(s.take_due(t), std::vector<size_t>{0});
    EXPECT_EQ(s.due(0), t + seconds(1));
}

TEST(PollSchedule, NothingScheduledHasNoDueTime) {
    PollSchedule s;
    EXPECT_FALSE(s.next_due());
    EXPECT_TRUE(s.take_due(TimePoint{}).empty());
}

TEST(PollSchedule, TicksStayOnTheGridWhenPollsRunLate) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(1), t);
    s.take_due(t);
    // The loop woke 300 ms late: the next tick is still at 2 s, not 2.3 s.
    EXPECT_EQ(s.take_due(t + milliseconds(1300)), std::vector<size_t>{0});
    EXPECT_EQ(s.due(0), t + seconds(2));
}

TEST(PollSchedule, MissedTicksAreSkippedNotReplayed) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(1), t);
    s.take_due(t);
    EXPECT_EQ(s.take_due(t + milliseconds(5500)).size(), 1u);  // one run, not five
    EXPECT_EQ(s.due(0), t + seconds(6));
    EXPECT_TRUE(s.take_due(t + milliseconds(5900)).empty());
}

TEST(PollSchedule, EntriesWithDifferentIntervalsComeDueIndependently) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(1), t);
    s.add(seconds(10), t);
    EXPECT_EQ(s.take_due(t).size(), 2u);
    EXPECT_EQ(s.next_due(), t + seconds(1));
    EXPECT_EQ(s.take_due(t + seconds(1)), std::vector<size_t>{0});
    EXPECT_EQ(s.take_due(t + seconds(10)), (std::vector<size_t>{0, 1}));
}

TEST(PollSchedule, RunAtBringsAnEntryForwardOnly) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(10), t);
    s.take_due(t);
    s.run_at(0, t + seconds(2));
    EXPECT_EQ(s.due(0), t + seconds(2));
    s.run_at(0, t + seconds(5));
    EXPECT_EQ(s.due(0), t + seconds(2));
}

TEST(PollSchedule, ZeroIntervalIsTakenAsOneSecondNotABusyLoop) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(Duration::zero(), t);
    s.take_due(t);
    EXPECT_EQ(s.due(0), t + seconds(1));
}

}  // namespace
}  // namespace rdmadiag::runtime
