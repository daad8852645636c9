#pragma once
// When a subnet-scope MAD source reads what. Discovery (the SA's NodeRecords, or a directed-route
// walk) is the expensive part and the fabric's shape rarely changes, so it has its own, long,
// interval; P_Key tables and PMA counters have theirs. Every pass reads PortInfo too (state, LIDs,
// violation counters). A pass that finds a node silent or a link changed asks for discovery at
// the next poll: a node that left or was plugged in, or LIDs the SM moved, are found then
// instead of at the next scheduled discovery.

#include "collector/common/time.hpp"
#include "collector/sources/mad/mad_sweep.hpp"

namespace rdmadiag::mad {

struct SweepIntervals {
    Duration discovery = std::chrono::minutes(10);
    Duration pkeys = std::chrono::seconds(10);
    Duration counters = std::chrono::seconds(30);
};

struct SweepPlan {
    bool discover = false;
    SweepParts parts{false, false};
    bool any() const { return discover || parts.pkeys || parts.counters; }
};

class SweepSchedule {
public:
    explicit SweepSchedule(SweepIntervals intervals);

    // How often the source must be polled for each part to be read on time.
    Duration poll_interval() const;
    // What is due at `now`. Nothing has been read yet: everything.
    SweepPlan due(TimePoint now) const;
    // The plan ran at `now`.
    void ran(const SweepPlan& plan, TimePoint now);
    // Rediscover at the next poll (a node went silent, an SM trap said the shape changed).
    void rediscover() { rediscover_ = true; }

    const SweepIntervals& intervals() const { return intervals_; }

private:
    SweepIntervals intervals_;
    bool started_ = false;
    bool rediscover_ = false;
    TimePoint next_discovery_{}, next_pkeys_{}, next_counters_{};
};

}  // namespace rdmadiag::mad
