#include "gui/models/snapshot_delta.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace rdmadiag::gui::models {

namespace {

bool by_name(const DeviceSnapshot& d, std::string_view name) {
    return d.info.device < name;
}

bool same_ports(const DeviceSnapshot& a, const DeviceSnapshot& b) {
    return a.ports.size() == b.ports.size() &&
           std::equal(a.ports.begin(), a.ports.end(), b.ports.begin(),
                      [](const PortSnapshot& x, const PortSnapshot& y) { return x.ref == y.ref; });
}

// The feed leaves counters out; the client keeps the ones it fetched for the port it watches.
void keep_counters(DeviceSnapshot& next, const DeviceSnapshot& old) {
    for (auto& p : next.ports) {
        if (!p.counters.empty()) continue;
        for (const auto& o : old.ports) {
            if (o.ref.port == p.ref.port) {
                p.counters = o.counters;
                break;
            }
        }
    }
}

template <class T>
bool take(std::optional<T>& from, T& to) {
    if (!from) return false;
    to = std::move(*from);
    return true;
}

}  // namespace

bool DeltaEffect::touches(std::string_view device) const {
    return std::find(changed_devices.begin(), changed_devices.end(), device) !=
           changed_devices.end();
}

DeltaEffect apply_delta(Snapshot& state, SnapshotDelta delta) {
    DeltaEffect effect;
    state.sequence = delta.sequence;
    state.time = delta.time;
    if (delta.full && !delta.device_names) {
        // A full answer lists every device: anything else is gone.
        delta.device_names.emplace();
        for (const auto& d : delta.devices) delta.device_names->push_back(d.info.device);
    }
    if (delta.device_names) {
        const std::unordered_set<std::string> keep(delta.device_names->begin(),
                                                   delta.device_names->end());
        erase_if(state.devices, [&](const DeviceSnapshot& d) {
            if (keep.contains(d.info.device)) return false;
            effect.removed_devices.push_back(d.info.device);
            return true;
        });
        effect.reshaped = !effect.removed_devices.empty();
    }
    for (auto& d : delta.devices) {
        const std::string name = d.info.device;
        // Looked up read-only: a device is made this snapshot's own only where it is replaced.
        const auto& devices = std::as_const(state.devices);
        auto it = std::lower_bound(devices.begin(), devices.end(), name, by_name);
        if (it != devices.end() && it->info.device == name) {
            if (!same_ports(*it, d)) effect.reshaped = true;
            keep_counters(d, *it);
            state.devices.set(static_cast<size_t>(it - devices.begin()), std::move(d));
        } else {
            state.devices.insert(it, std::move(d));
            effect.reshaped = true;
        }
        effect.changed_devices.push_back(name);
    }
    take(delta.sources, state.sources);
    effect.findings_changed = take(delta.findings, state.findings);
    effect.findings_changed |= take(delta.finding_history, state.finding_history);
    effect.events_changed = take(delta.events, state.events);
    take(delta.errors, state.errors);
    take(delta.event_totals, state.event_totals);
    effect.mrs_changed = take(delta.mrs, state.mrs);
    take(delta.pkey_changes, state.pkey_changes);
    return effect;
}

}  // namespace rdmadiag::gui::models
