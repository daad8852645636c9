#include "collector/sources/mad/sweep_schedule.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::mad {
namespace {

using namespace std::chrono_literals;

TimePoint at(Duration d) {
    return TimePoint{} + d;
}

TEST(SweepSchedule, TheFirstPollReadsEverything) {
    SweepSchedule s(SweepIntervals{600s, 10s, 30s});
    const SweepPlan p = s.due(at(0s));
    EXPECT_TRUE(p.discover);
    EXPECT_TRUE(p.parts.pkeys);
    EXPECT_TRUE(p.parts.counters);
    EXPECT_EQ(s.poll_interval(), 10s);
}

TEST(SweepSchedule, EachPartRunsOnItsOwnInterval) {
    SweepSchedule s(SweepIntervals{600s, 10s, 30s});
    s.ran(s.due(at(0s)), at(0s));
    int discoveries = 0, tables = 0, counters = 0;
    for (int t = 10; t <= 1200; t += 10) {
        const SweepPlan p = s.due(at(std::chrono::seconds(t)));
        discoveries += p.discover;
        tables += p.parts.pkeys;
        counters += p.parts.counters;
        s.ran(p, at(std::chrono::seconds(t)));
    }
    EXPECT_EQ(tables, 120);
    EXPECT_EQ(counters, 40);
    EXPECT_EQ(discoveries, 2);
}

TEST(SweepSchedule, ALongIntervalThatIsNoMultipleOfThePollDoesNotSlipAWholePoll) {
    SweepSchedule s(SweepIntervals{600s, 10s, 25s});
    s.ran(s.due(at(0s)), at(0s));
    std::vector<int> counter_polls;
    for (int t = 10; t <= 100; t += 10) {
        const SweepPlan p = s.due(at(std::chrono::seconds(t)));
        if (p.parts.counters) counter_polls.push_back(t);
        s.ran(p, at(std::chrono::seconds(t)));
    }
    EXPECT_EQ(counter_polls, (std::vector<int>{20, 40, 60, 80, 100}));
}

TEST(SweepSchedule, ASilentNodeBringsDiscoveryForward) {
    SweepSchedule s(SweepIntervals{600s, 10s, 30s});
    s.ran(s.due(at(0s)), at(0s));
    EXPECT_FALSE(s.due(at(10s)).discover);
    s.rediscover();
    const SweepPlan p = s.due(at(10s));
    EXPECT_TRUE(p.discover);
    s.ran(p, at(10s));
    EXPECT_FALSE(s.due(at(20s)).discover) << "once";
}

}  // namespace
}  // namespace rdmadiag::mad
