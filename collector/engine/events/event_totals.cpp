#include "collector/engine/events/event_totals.hpp"

namespace rdmadiag::engine::events {

void EventTotals::observe(const Observation& obs, EngineContext& ctx) {
    (void)ctx;
    const auto* event = std::get_if<AsyncEvent>(&obs.body);
    if (!event) return;
    ++counts_[Key{event->device, event->port, event->type}];
}

void EventTotals::contribute(Snapshot& snapshot) const {
    snapshot.event_totals.clear();
    snapshot.event_totals.reserve(counts_.size());
    for (const auto& [key, count] : counts_) {
        const auto& [device, port, type] = key;
        snapshot.event_totals.push_back(EventTotal{device, port, type, count});
    }
}

}  // namespace rdmadiag::engine::events
