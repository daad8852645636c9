#include "collector/engine/pkey/pkey_views.hpp"

#include <algorithm>

namespace rdmadiag {

void PKeyViews::observe(const Observation& obs, EngineContext& ctx) {
    (void)ctx;
    const auto* sample = std::get_if<PKeyTableSample>(&obs.body);
    if (!sample) return;
    auto& port = ports_[sample->port];
    auto it = std::find_if(port.views.begin(), port.views.end(),
                           [&](const PKeyViewState& s) { return s.view == sample->view; });
    if (it == port.views.end()) {
        PKeyViewState s;
        s.view = sample->view;
        s.table = sample->table;
        s.generation = 1;
        s.changed = obs.time;
        s.confirmed = obs.time;
        s.source = obs.source;
        port.views.push_back(std::move(s));
        std::sort(port.views.begin(), port.views.end(),
                  [](const PKeyViewState& a, const PKeyViewState& b) { return a.view < b.view; });
        return;
    }
    it->confirmed = obs.time;
    it->source = obs.source;
    if (it->table != sample->table) {
        it->table = sample->table;
        ++it->generation;
        it->changed = obs.time;
    }
}

void PKeyViews::contribute(Snapshot& snapshot) const {
    for (auto& dev : snapshot.devices) {
        for (auto& port : dev.ports) {
            auto it = ports_.find(port.ref);
            if (it != ports_.end()) port.pkeys = it->second;
        }
    }
}

const PKeyViewState* PKeyViews::view(const PortRef& port, PKeyView v) const {
    auto it = ports_.find(port);
    return it == ports_.end() ? nullptr : it->second.find(v);
}

}  // namespace rdmadiag
