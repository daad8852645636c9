#include "gui/models/pkey_change_marks.hpp"

namespace rdmadiag::gui::models {

void PKeyChangeMarks::update(const Snapshot& snapshot) {
    for (const auto& d : snapshot.devices) update(d);
}

void PKeyChangeMarks::update(const DeviceSnapshot& device) {
    for (const auto& p : device.ports) {
        const auto& diff = p.pkeys.last_diff;
        if (!diff) continue;
        auto& times = ports_[p.ref];
        // The same diff is carried by every snapshot until the next change.
        if (!times.empty() && times.back() >= diff->time) continue;
        times.push_back(diff->time);
        while (times.size() > max_marks_) times.pop_front();
    }
}

std::deque<TimePoint> PKeyChangeMarks::change_times(const PortRef& port) const {
    const auto it = ports_.find(port);
    return it == ports_.end() ? std::deque<TimePoint>{} : it->second;
}

}  // namespace rdmadiag::gui::models
