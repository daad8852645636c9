#include "gui/models/pkey_change_tracker.hpp"

namespace rdmadiag::gui {

void PKeyChangeTracker::update(const Snapshot& snapshot) {
    for (const auto& d : snapshot.devices) {
        for (const auto& p : d.ports) {
            const PKeyViewState* dev = p.pkeys.find(PKeyView::device);
            if (!dev) dev = p.pkeys.find(PKeyView::sma);
            if (!dev) continue;
            auto [it, fresh] = ports_.try_emplace(p.ref);
            PortTrack& track = it->second;
            if (!fresh && dev->generation != track.generation && !(dev->table == track.table)) {
                PKeyTableChange change{track.generation, dev->generation, dev->changed,
                                       diff_pkey_tables(track.table, dev->table)};
                track.last = std::move(change);
                track.times.push_back(dev->changed);
                while (track.times.size() > max_marks_) track.times.pop_front();
            }
            track.generation = dev->generation;
            track.table = dev->table;
        }
    }
}

const PKeyTableChange* PKeyChangeTracker::last_change(const PortRef& port) const {
    const auto it = ports_.find(port);
    if (it == ports_.end() || !it->second.last) return nullptr;
    return &*it->second.last;
}

std::deque<TimePoint> PKeyChangeTracker::change_times(const PortRef& port) const {
    const auto it = ports_.find(port);
    return it == ports_.end() ? std::deque<TimePoint>{} : it->second.times;
}

}  // namespace rdmadiag::gui
