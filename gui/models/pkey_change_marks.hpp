#pragma once
// When each port's P_Key table changed, for the counter charts' marks. A snapshot carries only
// the engine's last diff per port (PortPKeyState::last_diff); the marks remember the times of
// the diffs seen across successive snapshots. Nothing is diffed here.

#include <deque>
#include <map>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

class PKeyChangeMarks {
public:
    explicit PKeyChangeMarks(size_t max_marks = 256) : max_marks_(max_marks) {}

    void update(const Snapshot& snapshot);
    void update(const DeviceSnapshot& device);  // one device that changed
    void clear() { ports_.clear(); }

    // When the port's table changed, oldest first.
    std::deque<TimePoint> change_times(const PortRef& port) const;

private:
    size_t max_marks_;
    std::map<PortRef, std::deque<TimePoint>> ports_;
};

}  // namespace rdmadiag::gui::models
