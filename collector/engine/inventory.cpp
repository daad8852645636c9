#include "collector/engine/inventory.hpp"

#include <algorithm>
#include <variant>

namespace rdmadiag {

Transport infer_transport(const DeviceInfo& info, std::optional<LinkLayer> link_layer) {
    if (info.node_type && *info.node_type == "RNIC") return Transport::iwarp;
    if (link_layer == LinkLayer::ethernet) return Transport::roce;
    if (link_layer == LinkLayer::infiniband) return Transport::ib;
    return info.transport;
}

Inventory::DeviceEntry& Inventory::device_entry(const std::string& name, const Observation& obs) {
    auto it = devices_.find(name);
    if (it == devices_.end()) {
        DeviceEntry e;
        e.info.device = name;
        e.source = obs.source;
        it = devices_.emplace(name, std::move(e)).first;
    }
    it->second.present = true;
    it->second.updated = obs.time;
    return it->second;
}

Inventory::PortEntry& Inventory::port_entry(const PortRef& ref, const Observation& obs) {
    auto& dev = device_entry(ref.device, obs);
    auto& port = dev.ports[ref.port];
    port.info.port = ref;
    port.present = true;
    port.updated = obs.time;
    return port;
}

std::optional<CounterChange> Inventory::observe(const Observation& obs) {
    auto& src = sources_[obs.source];
    if (src.name.empty()) {
        src.name = obs.source;
        src.up = true;
    }
    ++src.observations;
    src.last_seen = obs.time;

    std::optional<CounterChange> change;
    std::visit(
        [&](const auto& body) {
            using T = std::decay_t<decltype(body)>;
            if constexpr (std::is_same_v<T, DeviceInfo>) {
                auto& dev = device_entry(body.device, obs);
                dev.info = body;
                dev.source = obs.source;
            } else if constexpr (std::is_same_v<T, DeviceList>) {
                for (auto& [name, dev] : devices_) {
                    if (dev.source != obs.source) continue;
                    const bool listed = std::find(body.devices.begin(), body.devices.end(),
                                                  name) != body.devices.end();
                    if (!listed && dev.present) {
                        dev.present = false;
                        dev.updated = obs.time;
                        for (auto& [n, p] : dev.ports) p.present = false;
                    }
                }
            } else if constexpr (std::is_same_v<T, PortStateSample>) {
                auto& port = port_entry(body.port, obs);
                port.info = body;
            } else if constexpr (std::is_same_v<T, PKeyTableSample>) {
                port_entry(body.port, obs);
            } else if constexpr (std::is_same_v<T, CounterSample>) {
                auto& port = port_entry(body.port, obs);
                auto key = std::make_pair(body.kind, body.name);
                auto it = port.counters.find(key);
                const bool fresh = it == port.counters.end();
                if (fresh) it = port.counters.emplace(key, CounterState{}).first;
                change = apply_counter_sample(it->second, body, obs.time, fresh);
            } else if constexpr (std::is_same_v<T, AsyncEvent>) {
                events_.push_back(EventRecord{obs.time, obs.source, body});
                while (events_.size() > limits_.events) events_.pop_front();
            } else if constexpr (std::is_same_v<T, SourceStatus>) {
                src.up = body.up;
                src.reason = body.reason;
            } else if constexpr (std::is_same_v<T, SampleError>) {
                ++src.errors;
                errors_.push_back(ErrorRecord{obs.time, obs.source, body});
                while (errors_.size() > limits_.errors) errors_.pop_front();
            }
        },
        obs.body);
    return change;
}

const DeviceInfo* Inventory::device(std::string_view name) const {
    auto it = devices_.find(name);
    return it == devices_.end() ? nullptr : &it->second.info;
}

Transport Inventory::transport(std::string_view name) const {
    auto it = devices_.find(name);
    if (it == devices_.end()) return Transport::unknown;
    std::optional<LinkLayer> ll;
    if (!it->second.ports.empty()) ll = it->second.ports.begin()->second.info.link_layer;
    return infer_transport(it->second.info, ll);
}

const CounterState* Inventory::counter(const PortRef& port, CounterKind kind,
                                       const std::string& name) const {
    auto d = devices_.find(port.device);
    if (d == devices_.end()) return nullptr;
    auto p = d->second.ports.find(port.port);
    if (p == d->second.ports.end()) return nullptr;
    auto c = p->second.counters.find(std::make_pair(kind, name));
    return c == p->second.counters.end() ? nullptr : &c->second;
}

void Inventory::fill(Snapshot& snap) const {
    snap.devices.clear();
    snap.devices.reserve(devices_.size());
    for (const auto& [name, dev] : devices_) {
        DeviceSnapshot ds;
        ds.info = dev.info;
        if (ds.info.transport == Transport::unknown) ds.info.transport = transport(name);
        ds.present = dev.present;
        ds.source = dev.source;
        ds.updated = dev.updated;
        for (const auto& [num, port] : dev.ports) {
            PortSnapshot ps;
            ps.ref = PortRef{name, num};
            ps.info = port.info;
            ps.info.port = ps.ref;
            ps.present = port.present && dev.present;
            ps.updated = port.updated;
            ps.counters.reserve(port.counters.size());
            for (const auto& [key, c] : port.counters) ps.counters.push_back(c);
            ds.ports.push_back(std::move(ps));
        }
        snap.devices.push_back(std::move(ds));
    }
    snap.sources.clear();
    for (const auto& [name, s] : sources_) snap.sources.push_back(s);
    snap.events.assign(events_.begin(), events_.end());
    snap.errors.assign(errors_.begin(), errors_.end());
}

}  // namespace rdmadiag
