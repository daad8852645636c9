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

TEST(PollSchedule, TheNextWakeupIsTheEarliestDueTimeNotAFixedTick) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(15), t);
    s.take_due(t);
    EXPECT_EQ(s.next_due(), t + seconds(15));  // nothing in between: nothing to wake for
    EXPECT_TRUE(s.take_due(t + seconds(14)).empty());
}

TEST(PollSchedule, SourcesDueWithinOneTickRunInOneWakeup) {
    // A fast tier every second, the probe's slow drain every second, a 15 s tier and a source at
    // 2.5 s, which is no multiple of the others: a loop that sleeps until next_due() and takes
    // what is due wakes once a second, never more, and each source keeps its own rate.
    PollSchedule s;
    TimePoint t{seconds(0)};
    const size_t fast = s.add(seconds(1), t);
    const size_t drain = s.add(seconds(1), t);
    const size_t slow = s.add(seconds(15), t);
    const size_t odd = s.add(milliseconds(2500), t);
    EXPECT_EQ(s.tick(), seconds(1));
    std::vector<int> runs(4, 0);
    std::vector<TimePoint> wakeups;
    for (auto now = s.next_due(); now && *now < t + seconds(60); now = s.next_due()) {
        wakeups.push_back(*now);
        for (size_t i : s.take_due(*now)) ++runs[i];
    }
    ASSERT_EQ(wakeups.size(), 60u);
    for (size_t i = 0; i < wakeups.size(); ++i) EXPECT_EQ(wakeups[i], t + seconds(i));
    EXPECT_EQ(runs[fast], 60);
    EXPECT_EQ(runs[drain], 60);
    EXPECT_EQ(runs[slow], 4);  // 0, 15, 30, 45
    EXPECT_EQ(runs[odd], 24);  // its grid 0, 2.5, 5, ... taken at the tick at or after each
}

TEST(PollSchedule, ADueTimeBetweenTicksIsTakenAtTheNextTick) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(1), t);
    const size_t odd = s.add(milliseconds(2500), t);
    s.take_due(t);
    EXPECT_EQ(s.due(odd), t + seconds(3));
    EXPECT_EQ(s.take_due(t + seconds(3)), (std::vector<size_t>{0, odd}));
    EXPECT_EQ(s.due(odd), t + seconds(5));  // its own grid: 5 s, not 3 + 2.5 s
}

TEST(PollSchedule, RunAtIsNotHeldBackToTheGrid) {
    PollSchedule s;
    TimePoint t{seconds(0)};
    s.add(seconds(1), t);
    s.add(seconds(10), t);
    s.take_due(t);
    s.run_at(1, t + milliseconds(300));
    EXPECT_EQ(s.next_due(), t + milliseconds(300));
    EXPECT_EQ(s.take_due(t + milliseconds(300)), std::vector<size_t>{1});
    EXPECT_EQ(s.due(1), t + seconds(10));
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
