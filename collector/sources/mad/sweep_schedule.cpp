#include "collector/sources/mad/sweep_schedule.hpp"

#include <algorithm>

namespace rdmadiag::mad {

namespace {

// A part is due a little early rather than a whole poll late: polls land on the drift-free
// schedule of the shortest interval, and a longer one that is not a multiple of it would
// otherwise slip by up to one poll each time.
bool is_due(TimePoint now, TimePoint next, Duration poll) {
    return now + poll / 2 >= next;
}

}  // namespace

SweepSchedule::SweepSchedule(SweepIntervals intervals) : intervals_(intervals) {}

Duration SweepSchedule::poll_interval() const {
    return std::min({intervals_.discovery, intervals_.pkeys, intervals_.counters});
}

SweepPlan SweepSchedule::due(TimePoint now) const {
    if (!started_) return SweepPlan{true, SweepParts{true, true}};
    const Duration poll = poll_interval();
    SweepPlan plan;
    plan.discover = rediscover_ || is_due(now, next_discovery_, poll);
    plan.parts.pkeys = is_due(now, next_pkeys_, poll);
    plan.parts.counters = is_due(now, next_counters_, poll);
    return plan;
}

void SweepSchedule::ran(const SweepPlan& plan, TimePoint now) {
    started_ = true;
    if (plan.discover) {
        rediscover_ = false;
        next_discovery_ = now + intervals_.discovery;
    }
    if (plan.parts.pkeys) next_pkeys_ = now + intervals_.pkeys;
    if (plan.parts.counters) next_counters_ = now + intervals_.counters;
}

}  // namespace rdmadiag::mad
