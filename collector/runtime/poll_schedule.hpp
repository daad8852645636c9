#pragma once
// When each polled source runs next. Ticks stay on the grid start + k*interval so they do not
// drift with poll duration, and a source that fell behind (a slow device) skips the ticks it
// missed instead of running back to back to catch up.
//
// Every poll runs on a tick of one shared grid, the shortest interval's: a due time between two
// ticks is taken at the next one. Sources whose intervals are not multiples of each other (a 1 s
// tier and a 2.5 s one) then still wake the loop once per tick together, never once each, and
// a source keeps its own rate on average (its own grid decides which tick it takes). With the
// intervals multiples of the shortest, as the defaults are, every poll is exactly on time.

#include <cstddef>
#include <optional>
#include <vector>

#include "collector/common/time.hpp"

namespace rdmadiag::runtime {

class PollSchedule {
public:
    // Returns the entry's index. The first run is due at `start` (on the grid's next tick).
    size_t add(Duration interval, TimePoint start);

    // When the next poll runs: the earliest entry's time, on the shared grid. Nothing when no
    // entry is scheduled. Nothing is ever due between two ticks, so a loop that sleeps until
    // this time wakes only when there is work.
    std::optional<TimePoint> next_due() const;
    // Entries due at `now`, in index order (every entry of the tick: one wakeup runs them all);
    // each is moved to its next tick after `now`.
    std::vector<size_t> take_due(TimePoint now);
    // Makes an entry due at `when` (if earlier than it already is), off the grid if need be.
    void run_at(size_t index, TimePoint when);

    size_t size() const { return entries_.size(); }
    // When the entry runs next.
    TimePoint due(size_t index) const { return runs_at(entries_.at(index)); }
    // The shared grid's spacing: the shortest interval (zero while nothing is scheduled).
    Duration tick() const { return tick_; }

private:
    struct Entry {
        Duration interval;
        TimePoint anchor;
        TimePoint due;  // on the entry's own grid
        std::optional<TimePoint> forced;
    };
    TimePoint runs_at(const Entry& e) const;
    // The first tick of the shared grid at or after `t`.
    TimePoint next_tick(TimePoint t) const;

    std::vector<Entry> entries_;
    TimePoint origin_{};
    Duration tick_ = Duration::zero();
};

}  // namespace rdmadiag::runtime
