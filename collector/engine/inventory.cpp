#include "collector/engine/inventory.hpp"

#include <algorithm>
#include <variant>

namespace rdmadiag::engine {

Transport infer_transport(const DeviceInfo& info, std::optional<LinkLayer> link_layer) {
    if (info.node_type && *info.node_type == "RNIC") return Transport::iwarp;
    if (link_layer == LinkLayer::ethernet) return Transport::roce;
    if (link_layer == LinkLayer::infiniband) return Transport::ib;
    return info.transport;
}

Inventory::DeviceEntry& Inventory::device_entry(const std::string& name, const Observation& obs,
                                                bool& fresh) {
    auto it = devices_.find(name);
    fresh = it == devices_.end() || !it->second.present;
    if (it == devices_.end()) {
        DeviceEntry e;
        e.info.device = name;
        e.source = obs.source;
        it = devices_.emplace(name, std::move(e)).first;
    }
    it->second.present = true;
    it->second.updated = obs.time;
    it->second.touched = true;
    return it->second;
}

namespace {

// Grows a vector by one place only: these vectors live once per port (or per counter of a port),
// and doubling would leave up to half of each unused for good.
template <typename T>
void reserve_one_more(std::vector<T>& v) {
    if (v.size() == v.capacity()) v.reserve(v.size() + 1);
}

}  // namespace

Inventory::PortEntry& Inventory::port_entry(const PortRef& ref, const Observation& obs,
                                            bool& fresh) {
    auto& dev = device_entry(ref.device, obs, fresh);
    auto it = std::lower_bound(dev.ports.begin(), dev.ports.end(), ref.port,
                               [](const PortEntry& p, uint32_t n) { return p.info.port.port < n; });
    if (it == dev.ports.end() || it->info.port.port != ref.port) {
        const auto at = it - dev.ports.begin();
        reserve_one_more(dev.ports);
        it = dev.ports.emplace(dev.ports.begin() + at);
        fresh = true;
    }
    auto& port = *it;
    fresh |= !port.present;
    port.info.port = ref;
    port.present = true;
    port.updated = obs.time;
    return port;
}

bool Inventory::observe(const Observation& obs) {
    auto& src = sources_[obs.source];
    bool changed = src.name.empty();
    if (changed) {
        src.name = obs.source;
        src.up = true;
    }
    ++src.observations;
    src.last_seen = obs.time;

    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, DeviceInfo>) {
                bool fresh = false;
                auto& dev = device_entry(body.device, obs, fresh);
                changed |= fresh || !(dev.info == body) || dev.source != obs.source;
                dev.info = body;
                dev.source = obs.source;
            } else if constexpr (std::is_same_v<T, DeviceList>) {
                for (auto& [name, dev] : devices_) {
                    if (dev.source != obs.source) continue;
                    const bool listed = std::find(body.devices.begin(), body.devices.end(), name) !=
                                        body.devices.end();
                    if (!listed && dev.present) {
                        dev.present = false;
                        dev.touched = true;
                        dev.updated = obs.time;
                        for (auto& p : dev.ports) p.present = false;
                        changed = true;
                    }
                }
            } else if constexpr (std::is_same_v<T, PortStateSample>) {
                bool fresh = false;
                auto& port = port_entry(body.port, obs, fresh);
                // Most readings find what the last one found: copying it (its GIDs are strings)
                // would be the round's largest allocation for nothing.
                if (fresh || !(port.info == body)) {
                    port.info = body;
                    changed = true;
                }
            } else if constexpr (std::is_same_v<T, PKeyTableSample> ||
                                 std::is_same_v<T, GidTableSample>) {
                bool fresh = false;
                port_entry(body.port, obs, fresh);
                changed |= fresh;
            } else if constexpr (std::is_same_v<T, CounterSample>) {
                bool fresh_port = false;
                auto& port = port_entry(body.port, obs, fresh_port);
                const uint32_t id = names_.intern(body.name);
                CounterTrack* c = find_counter(port, body.kind, id);
                const bool fresh = c == nullptr;
                if (fresh) c = &add_counter(port, body.kind, id);
                const CounterChange change = apply_counter_sample(*c, body, obs.time, fresh);
                changed |= fresh_port || change != CounterChange::unchanged;
            } else if constexpr (std::is_same_v<T, AsyncEvent>) {
                events_.push_back(EventRecord{obs.time, obs.source, body});
                while (events_.size() > limits_.events) events_.pop_front();
                changed = true;
            } else if constexpr (std::is_same_v<T, SourceStatus>) {
                changed |= src.up != body.up || src.reason != body.reason;
                src.up = body.up;
                src.reason = body.reason;
            } else if constexpr (std::is_same_v<T, SampleError>) {
                ++src.errors;
                errors_.push_back(ErrorRecord{obs.time, obs.source, body});
                while (errors_.size() > limits_.errors) errors_.pop_front();
                changed = true;
            } else {
                // What the inventory does not judge (MR records, a partitions file) changes what
                // the snapshot shows through the engine's modules.
                changed = true;
            }
        },
        obs.body);
    return changed;
}

const DeviceInfo* Inventory::device(std::string_view name) const {
    auto it = devices_.find(name);
    return it == devices_.end() ? nullptr : &it->second.info;
}

Transport Inventory::transport(std::string_view name) const {
    auto it = devices_.find(name);
    if (it == devices_.end()) return Transport::unknown;
    std::optional<LinkLayer> ll;
    if (!it->second.ports.empty()) ll = it->second.ports.front().info.link_layer;
    return infer_transport(it->second.info, ll);
}

const PortStateSample* Inventory::port_info(const PortRef& port) const {
    const PortEntry* p = find_port(port);
    return p == nullptr ? nullptr : &p->info;
}

const Inventory::PortEntry* Inventory::find_port(const PortRef& ref) const {
    auto d = devices_.find(ref.device);
    if (d == devices_.end()) return nullptr;
    const auto& ports = d->second.ports;
    auto it = std::lower_bound(ports.begin(), ports.end(), ref.port,
                               [](const PortEntry& p, uint32_t n) { return p.info.port.port < n; });
    return it == ports.end() || it->info.port.port != ref.port ? nullptr : &*it;
}

CounterTrack* Inventory::find_counter(PortEntry& port, CounterKind kind, uint32_t name_id) {
    auto& cs = port.counters;
    const size_t n = cs.size();
    // Readings come round in the same order: try the place after the last one first.
    for (size_t i = 0, at = port.cursor; i < n; ++i, ++at) {
        if (at >= n) at = 0;
        if (cs[at].name_id == name_id && cs[at].kind == kind) {
            port.cursor = static_cast<uint32_t>(at + 1);
            return &cs[at];
        }
    }
    return nullptr;
}

CounterTrack& Inventory::add_counter(PortEntry& port, CounterKind kind, uint32_t name_id) {
    const std::string& name = names_.name(name_id);
    auto it = std::lower_bound(
        port.counters.begin(), port.counters.end(), std::pair{kind, &name},
        [&](const CounterTrack& c, const std::pair<CounterKind, const std::string*>& k) {
            if (c.kind != k.first) return c.kind < k.first;
            return names_.name(c.name_id) < *k.second;
        });
    const auto at = it - port.counters.begin();
    reserve_one_more(port.counters);
    auto& c = *port.counters.emplace(port.counters.begin() + at);
    c.name_id = name_id;
    c.kind = kind;
    port.cursor = static_cast<uint32_t>(at + 1);
    return c;
}

const CounterTrack* Inventory::counter(const PortRef& port, CounterKind kind,
                                       std::string_view name) const {
    const auto id = names_.find(name);
    if (!id) return nullptr;
    const PortEntry* p = find_port(port);
    if (!p) return nullptr;
    for (const auto& c : p->counters) {
        if (c.name_id == *id && c.kind == kind) return &c;
    }
    return nullptr;
}

DeviceSnapshot Inventory::build_device(const std::string& name, const DeviceEntry& dev) const {
    DeviceSnapshot ds;
    ds.info = dev.info;
    if (ds.info.transport == Transport::unknown) ds.info.transport = transport(name);
    ds.present = dev.present;
    ds.source = dev.source;
    ds.updated = dev.updated;
    ds.ports.reserve(dev.ports.size());
    for (const auto& port : dev.ports) {
        const uint32_t num = port.info.port.port;
        PortSnapshot ps;
        ps.ref = PortRef{name, num};
        ps.info = port.info;
        ps.info.port = ps.ref;
        ps.present = port.present && dev.present;
        ps.updated = port.updated;
        ps.counters.reserve(port.counters.size());
        for (const auto& c : port.counters)
            ps.counters.push_back(to_counter_state(c, names_.handle(c.name_id)));
        ds.ports.push_back(std::move(ps));
    }
    return ds;
}

void Inventory::fill_devices(Snapshot& snap, const Snapshot* previous,
                             const std::set<std::string, std::less<>>& rebuild,
                             const std::function<void(PortSnapshot&)>& contribute) {
    snap.devices.clear();
    snap.devices.reserve(devices_.size());
    // Both are in name order: one walk pairs each device with its copy in the last snapshot.
    size_t old = 0;
    const size_t old_end = previous ? previous->devices.size() : 0;
    for (auto& [name, dev] : devices_) {
        while (old < old_end && previous->devices[old].info.device < name) ++old;
        const bool had = old < old_end && previous->devices[old].info.device == name;
        if (had && !dev.touched && !rebuild.contains(name)) {
            snap.devices.push_shared(previous->devices.shared(old));
            continue;
        }
        DeviceSnapshot ds = build_device(name, dev);
        for (auto& port : ds.ports) contribute(port);
        snap.devices.push_back(std::move(ds));
        dev.touched = false;
    }
}

void Inventory::fill_records(Snapshot& snap) const {
    snap.sources.clear();
    for (const auto& [name, s] : sources_) snap.sources.push_back(s);
    snap.events.assign(events_.begin(), events_.end());
    snap.errors.assign(errors_.begin(), errors_.end());
}

void Inventory::fill(Snapshot& snap) const {
    snap.devices.clear();
    snap.devices.reserve(devices_.size());
    for (const auto& [name, dev] : devices_) snap.devices.push_back(build_device(name, dev));
    fill_records(snap);
}

}  // namespace rdmadiag::engine
