#pragma once
// Follows each port's device P_Key table across successive snapshots: the last change (as an
// index-by-index diff) and a bounded list of when the table changed, for the counter charts.

#include <deque>
#include <map>
#include <optional>

#include "collector/model/snapshot.hpp"
#include "gui/models/pkey_table_diff.hpp"

namespace rdmadiag::gui {

class PKeyChangeTracker {
public:
    explicit PKeyChangeTracker(size_t max_marks = 256) : max_marks_(max_marks) {}

    void update(const Snapshot& snapshot);
    void clear() { ports_.clear(); }

    const PKeyTableChange* last_change(const PortRef& port) const;
    // When the port's table changed, oldest first.
    std::deque<TimePoint> change_times(const PortRef& port) const;

private:
    struct PortTrack {
        uint64_t generation = 0;
        PKeyTable table;
        std::optional<PKeyTableChange> last;
        std::deque<TimePoint> times;
    };
    size_t max_marks_;
    std::map<PortRef, PortTrack> ports_;
};

}  // namespace rdmadiag::gui
