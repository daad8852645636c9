#pragma once
// When each polled source runs next. Ticks stay on the grid start + k*interval so they do not
// drift with poll duration, and a source that fell behind (a slow device) skips the ticks it
// missed instead of running back to back to catch up.

#include <cstddef>
#include <optional>
#include <vector>

#include "collector/common/time.hpp"

namespace rdmadiag::runtime {

class PollSchedule {
public:
    // Returns the entry's index. The first run is due at `start`.
    size_t add(Duration interval, TimePoint start);

    // The earliest due time, or nothing when no entry is scheduled.
    std::optional<TimePoint> next_due() const;
    // Entries due at `now`, in index order; each is moved to its next tick after `now`.
    std::vector<size_t> take_due(TimePoint now);
    // Makes an entry due at `when` (if earlier than it already is).
    void run_at(size_t index, TimePoint when);

    size_t size() const { return entries_.size(); }
    TimePoint due(size_t index) const { return entries_.at(index).due; }

private:
    struct Entry {
        Duration interval;
        TimePoint anchor;
        TimePoint due;
    };
    std::vector<Entry> entries_;
};

}  // namespace rdmadiag::runtime
