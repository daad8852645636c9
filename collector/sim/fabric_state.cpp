#include "collector/sim/fabric_state.hpp"

#include <algorithm>

namespace rdmadiag::sim {

namespace {

std::string port_text(const PortRef& p) {
    return p.to_string();
}

std::optional<size_t> find_key(const std::vector<uint16_t>& keys, uint16_t key) {
    for (size_t i = 0; i < keys.size(); ++i) {
        if (!pkey_is_empty(keys[i]) && pkey_base(keys[i]) == pkey_base(key)) return i;
    }
    return std::nullopt;
}

Result<void> check_index(uint16_t index, const std::vector<uint16_t>& keys) {
    if (index >= keys.size()) {
        return make_error("index " + std::to_string(index) + " is outside the table (size " +
                          std::to_string(keys.size()) + ")");
    }
    return {};
}

}  // namespace

Result<void> apply_pkey_op(const PKeyEdit& edit, std::vector<uint16_t>& keys) {
    switch (edit.op) {
        case PKeyOp::set:
        case PKeyOp::clear: {
            RDMADIAG_TRY(check_index(edit.index, keys));
            keys[edit.index] = edit.op == PKeyOp::set ? edit.key : 0;
            return {};
        }
        case PKeyOp::move: {
            auto from = find_key(keys, edit.key);
            if (!from) return make_error("key " + format_pkey(edit.key) + " is not in the table");
            RDMADIAG_TRY(check_index(edit.index, keys));
            if (*from == edit.index) return {};
            if (!pkey_is_empty(keys[edit.index])) {
                return make_error("index " + std::to_string(edit.index) + " already holds " +
                                  format_pkey(keys[edit.index]));
            }
            keys[edit.index] = keys[*from];
            keys[*from] = 0;
            return {};
        }
        case PKeyOp::flip: {
            auto at = find_key(keys, edit.key);
            if (!at) return make_error("key " + format_pkey(edit.key) + " is not in the table");
            keys[*at] ^= kPKeyMembershipBit;
            return {};
        }
        case PKeyOp::table: {
            std::vector<uint16_t> next(keys.size(), 0);
            for (const auto& [index, key] : edit.entries) {
                RDMADIAG_TRY(check_index(index, next));
                next[index] = key;
            }
            keys = std::move(next);
            return {};
        }
    }
    return make_error("unknown P_Key operation");
}

FabricState::FabricState(const Scenario& scenario, std::string source_name)
    : source_(std::move(source_name)), mrs_(scenario.mrs), max_mr_(scenario.max_mr) {
    for (const auto& h : scenario.mr_holders) {
        holders_.push_back(Holder{h, static_cast<double>(h.mrs), false, false});
    }
    for (const auto& d : scenario.devices) {
        DeviceEntry dev;
        dev.info = d;
        for (const auto& p : scenario.ports) {
            if (p.state.port.device != d.device) continue;
            PortEntry port;
            port.state = p.state;
            port.views = p.views;
            port.counters = p.counters;
            port.growth_carry.assign(p.counters.size(), 0);
            if (p.state.link_layer == LinkLayer::ethernet && !p.netdev.empty()) {
                PortEntry::Roce r;
                r.netdev = p.netdev;
                if (p.mac) r.default_gid = gid_from_mac(*p.mac);
                r.on_netdev = p.addresses;
                if (r.default_gid) r.cache.push_back(r.default_gid);
                for (const auto& a : p.addresses) r.cache.push_back(a);
                port.roce = std::move(r);
            }
            if (p.state.link_layer == LinkLayer::infiniband && p.state.port_guid) {
                port.gid_prefixes =
                    std::array<uint64_t, 3>{p.gid_prefix, p.gid_prefix, p.gid_prefix};
            }
            for (auto v : kFabricViewOrder) {
                if ((p.views & view_bit(v)) != 0) port.tables[v] = p.device_table;
            }
            if (p.state.link_layer == LinkLayer::infiniband && p.state.port_guid)
                ipoib_gids_[p.state.port] = Gid::from_parts(p.gid_prefix, *p.state.port_guid);
            dev.ports.push_back(std::move(port));
        }
        devices_.push_back(std::move(dev));
    }
    if (!scenario.ipoib.empty()) {
        ipoib_.emplace(scenario.ipoib,
                       [this](const PortRef& p) { return table(p, PKeyView::device); });
    }
}

FabricState::DeviceEntry* FabricState::find_device(std::string_view name) {
    for (auto& d : devices_) {
        if (d.info.device == name) return &d;
    }
    return nullptr;
}

const FabricState::DeviceEntry* FabricState::find_device(std::string_view name) const {
    return const_cast<FabricState*>(this)->find_device(name);
}

FabricState::PortEntry* FabricState::find_port(const PortRef& ref) {
    auto* dev = find_device(ref.device);
    if (dev == nullptr) return nullptr;
    for (auto& p : dev->ports) {
        if (p.state.port == ref) return &p;
    }
    return nullptr;
}

const FabricState::PortEntry* FabricState::find_port(const PortRef& ref) const {
    return const_cast<FabricState*>(this)->find_port(ref);
}

Result<void> FabricState::apply(const EffectAction& action, TimePoint when,
                                sources::ObservationSink& sink) {
    return std::visit(
        [&](const auto& a) -> Result<void> {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, TableEffect>) return apply_table(a);
            if constexpr (std::is_same_v<T, CounterStep>) return apply_counter(a);
            if constexpr (std::is_same_v<T, PortStep>) return apply_port(a);
            if constexpr (std::is_same_v<T, EventStep>) return apply_event(a, when, sink);
            if constexpr (std::is_same_v<T, MrStep>) return apply_mr(a, when, sink);
            if constexpr (std::is_same_v<T, DeviceStep>) return apply_device(a);
            if constexpr (std::is_same_v<T, EnforcementStep>) return apply_enforcement(a);
            if constexpr (std::is_same_v<T, GidPrefixEffect>) return apply_gid_prefix(a);
            if constexpr (std::is_same_v<T, AddressEffect>) return apply_address(a);
            if constexpr (std::is_same_v<T, HolderExitEffect>) return apply_holder_exit(a, when);
            if constexpr (std::is_same_v<T, HolderRateStep>) return apply_holder_rate(a, when);
        },
        action);
}

Result<void> FabricState::apply_table(const TableEffect& effect) {
    auto* port = find_port(effect.edit.port);
    if (port == nullptr) return make_error("no port " + port_text(effect.edit.port));
    // All views or none: check on copies first so a failed edit leaves the port as it was.
    std::map<PKeyView, std::vector<uint16_t>> next;
    for (auto v : kFabricViewOrder) {
        if ((effect.views & view_bit(v)) == 0) continue;
        auto it = port->tables.find(v);
        if (it == port->tables.end()) {
            return make_error(port_text(effect.edit.port) + " has no " + std::string(to_string(v)) +
                              " view");
        }
        auto keys = it->second.keys;
        if (auto r = apply_pkey_op(effect.edit, keys); !r) {
            return make_error(std::string(to_string(effect.edit.op)) + " on " +
                              port_text(effect.edit.port) + " " + std::string(to_string(v)) +
                              " view: " + r.error().message);
        }
        next[v] = std::move(keys);
    }
    for (auto& [v, keys] : next) port->tables[v].keys = std::move(keys);
    return {};
}

namespace {
void add_to_counter(ScenarioCounter& c, uint64_t amount) {
    const uint64_t max = counter_max(c.width);
    if (c.overflow == CounterOverflow::saturate) {
        c.value = amount >= max - c.value ? max : c.value + amount;
    } else if (c.width >= 64) {
        c.value += amount;  // unsigned arithmetic wraps at 2^64
    } else {
        c.value = (c.value + (amount & max)) & max;
    }
}
}  // namespace

void FabricState::grow_counters(PortEntry& port, TimePoint when) {
    const auto last = port.last_counter_sample;
    port.last_counter_sample = when;
    if (!last || when <= *last || port.state.state != PortState::active) return;
    const auto ms = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(when - *last).count());
    for (size_t i = 0; i < port.counters.size(); ++i) {
        auto& c = port.counters[i];
        if (c.per_second == 0) continue;
        const uint64_t thousandths = c.per_second * ms + port.growth_carry[i];
        port.growth_carry[i] = thousandths % 1000;
        add_to_counter(c, thousandths / 1000);
    }
}

Result<void> FabricState::apply_counter(const CounterStep& step) {
    auto* port = find_port(step.port);
    if (port == nullptr) return make_error("no port " + port_text(step.port));
    if (step.op == CounterOp::reset && step.name.empty()) {
        for (auto& c : port->counters) c.value = 0;
        return {};
    }
    auto it = std::find_if(port->counters.begin(), port->counters.end(),
                           [&](const ScenarioCounter& c) { return c.name == step.name; });
    if (it == port->counters.end()) {
        return make_error("no counter " + step.name + " on " + port_text(step.port));
    }
    const uint64_t max = counter_max(it->width);
    switch (step.op) {
        case CounterOp::add:
            add_to_counter(*it, step.amount);
            return {};
        case CounterOp::set:
            if (step.amount > max) {
                return make_error("value " + std::to_string(step.amount) + " does not fit " +
                                  std::to_string(it->width) + "-bit counter " + step.name);
            }
            it->value = step.amount;
            return {};
        case CounterOp::reset:
            it->value = 0;
            return {};
    }
    return {};
}

Result<void> FabricState::apply_port(const PortStep& step) {
    auto* port = find_port(step.port);
    if (port == nullptr) return make_error("no port " + port_text(step.port));
    port->state.state = step.state;
    port->state.phys_state = step.phys_state;
    port->state.phys_state_text.reset();
    return {};
}

Result<void> FabricState::apply_event(const EventStep& step, TimePoint when,
                                      sources::ObservationSink& sink) {
    const auto* dev = find_device(step.event.device);
    if (dev == nullptr) return make_error("no device " + step.event.device);
    if (step.event.port && find_port(PortRef{step.event.device, *step.event.port}) == nullptr) {
        return make_error("no port " + step.event.device + ":" + std::to_string(*step.event.port));
    }
    // An unplugged device has no open context left to deliver events through.
    if (dev->present) emit(when, step.event, sink);
    if (dev->present && ipoib_ && step.event.type == AsyncEventType::pkey_change &&
        step.event.port) {
        const PortRef port{step.event.device, *step.event.port};
        if (const PKeyTable* t = table(port, PKeyView::device)) ipoib_->on_pkey_change(port, *t);
    }
    return {};
}

Result<void> FabricState::apply_mr(const MrStep& step, TimePoint when,
                                   sources::ObservationSink& sink) {
    auto it = std::find_if(mrs_.begin(), mrs_.end(), [&](const ScenarioMr& m) {
        return m.device == step.device && m.id == step.id;
    });
    if (it == mrs_.end()) {
        return make_error("no MR " + std::to_string(step.id) + " declared on " + step.device);
    }
    const auto* dev = find_device(step.device);
    if (dev == nullptr) return make_error("no device " + step.device);
    if (!dev->present) return {};
    MrEvent ev;
    ev.device = step.device;
    ev.mr = step.id;
    ev.key = it->key;
    ev.owner = it->owner;
    ev.op = step.op;
    ev.status = step.status;
    ev.rc = step.rc;
    const bool ok = !step.rc || *step.rc == 0;
    if (ok && step.op == MrOp::dereg) deregistered_.emplace(step.device, step.id);
    if (ok && (step.op == MrOp::alloc || step.op == MrOp::reg))
        deregistered_.erase({step.device, step.id});
    emit(when, std::move(ev), sink);
    return {};
}

Result<void> FabricState::apply_device(const DeviceStep& step) {
    auto* dev = find_device(step.device);
    if (dev == nullptr) return make_error("no device " + step.device);
    if (dev->present == step.present) {
        return make_error("device " + step.device + " is already " +
                          (step.present ? "present" : "removed"));
    }
    dev->present = step.present;
    dev->unseen = step.present;
    // Traffic counters do not grow while the device is gone.
    for (auto& p : dev->ports) p.last_counter_sample.reset();
    return {};
}

Result<void> FabricState::apply_enforcement(const EnforcementStep& step) {
    auto* port = find_port(step.port);
    if (port == nullptr) return make_error("no port " + port_text(step.port));
    port->state.partition_enforcement_inbound = step.inbound;
    port->state.partition_enforcement_outbound = step.outbound;
    return {};
}

void FabricState::emit(TimePoint when, ObservationBody body, sources::ObservationSink& sink) const {
    sink.emit(Observation{when, source_, std::move(body)});
}

void FabricState::emit_tables(const DeviceEntry& dev, const PortEntry& port, TimePoint when,
                              sources::ObservationSink& sink) const {
    (void)dev;
    for (const auto& [view, table] : port.tables) {
        emit(when, PKeyTableSample{port.state.port, view, table}, sink);
    }
    if (port.roce) {
        const auto& r = *port.roce;
        GidTable cache;
        for (size_t i = 0; i < r.cache.size(); ++i) {
            if (r.cache[i]) {
                cache.entries.push_back(
                    GidEntry{static_cast<uint16_t>(i), *r.cache[i], GidType::roce_v2, r.netdev});
            }
        }
        emit(when, GidTableSample{port.state.port, GidView::cache, std::move(cache)}, sink);
        GidTable netdev;
        auto add = [&](const Gid& g) {
            netdev.entries.push_back(GidEntry{static_cast<uint16_t>(netdev.entries.size()), g,
                                              GidType::unknown, r.netdev});
        };
        if (r.default_gid) add(*r.default_gid);
        for (const auto& g : r.on_netdev) add(g);
        emit(when, GidTableSample{port.state.port, GidView::netdev, std::move(netdev)}, sink);
    }
    if (!port.gid_prefixes) return;
    // GID 0 of each view: the kernel's cache as sysfs shows it, and the port and the SM's records
    // where the port's P_Key views say MADs reach it.
    auto gids = [&](GidView view, GidTarget target) {
        const uint64_t prefix = (*port.gid_prefixes)[static_cast<size_t>(target)];
        GidTable t;
        t.entries.push_back(
            GidEntry{0, Gid::from_parts(prefix, *port.state.port_guid), GidType::ib, {}});
        emit(when, GidTableSample{port.state.port, view, std::move(t)}, sink);
    };
    gids(GidView::cache, GidTarget::cache);
    if ((port.views & kSmaView) != 0) gids(GidView::sma, GidTarget::port);
    if ((port.views & kSmView) != 0) gids(GidView::sm, GidTarget::sm);
}

Result<void> FabricState::apply_gid_prefix(const GidPrefixEffect& effect) {
    auto* port = find_port(effect.port);
    if (port == nullptr) return make_error("no port " + port_text(effect.port));
    if (!port->gid_prefixes) {
        return make_error(port_text(effect.port) + " has no GIDs (an InfiniBand port_guid)");
    }
    (*port->gid_prefixes)[static_cast<size_t>(effect.target)] = effect.prefix;
    return {};
}

Result<void> FabricState::apply_address(const AddressEffect& effect) {
    auto* port = find_port(effect.port);
    if (port == nullptr) return make_error("no port " + port_text(effect.port));
    if (!port->roce) return make_error(port_text(effect.port) + " has no netdev (netdev=NAME)");
    auto& r = *port->roce;
    const std::string what = effect.address.to_string();
    if (!effect.cache) {
        auto it = std::find(r.on_netdev.begin(), r.on_netdev.end(), effect.address);
        if (effect.add == (it != r.on_netdev.end())) {
            return make_error(r.netdev + (effect.add ? " already has " : " does not have ") + what);
        }
        if (effect.add) {
            r.on_netdev.push_back(effect.address);
        } else {
            r.on_netdev.erase(it);
        }
        return {};
    }
    auto it = std::find(r.cache.begin(), r.cache.end(), std::optional<Gid>(effect.address));
    if (!effect.add) {
        if (it != r.cache.end()) it->reset();
        return {};
    }
    if (it != r.cache.end()) return {};
    auto hole = std::find(r.cache.begin(), r.cache.end(), std::nullopt);
    if (hole != r.cache.end()) {
        *hole = effect.address;
    } else {
        r.cache.push_back(effect.address);
    }
    return {};
}

std::optional<uint64_t> FabricState::gid_prefix(const PortRef& ref, GidTarget view) const {
    const auto* port = find_port(ref);
    if (port == nullptr || !port->gid_prefixes) return std::nullopt;
    return (*port->gid_prefixes)[static_cast<size_t>(view)];
}

void FabricState::sample_counters(TimePoint when, sources::ObservationSink& sink) {
    DeviceList list;
    for (const auto& d : devices_) {
        if (d.present) list.devices.push_back(d.info.device);
    }
    emit(when, std::move(list), sink);
    for (auto& d : devices_) {
        if (!d.present) continue;
        if (d.unseen) {
            // A device that just appeared is read whole, as a real source does on discovery.
            emit(when, d.info, sink);
            for (const auto& p : d.ports) emit_tables(d, p, when, sink);
            d.unseen = false;
        }
        for (auto& p : d.ports) {
            grow_counters(p, when);
            emit(when, p.state, sink);
            for (const auto& c : p.counters) {
                emit(when, CounterSample{p.state.port, c.name, c.value, c.width, c.kind}, sink);
            }
        }
    }
}

void FabricState::sample_tables(TimePoint when, sources::ObservationSink& sink) {
    bool reseen = false;
    for (auto& d : devices_) {
        if (!d.present) continue;
        reseen = reseen || d.unseen;
        d.unseen = false;
        emit(when, d.info, sink);
        if (auto m = max_mr_.find(d.info.device); m != max_mr_.end())
            emit(when, DeviceLimits{d.info.device, m->second}, sink);
        for (const auto& p : d.ports) emit_tables(d, p, when, sink);
    }
    sample_mr_listings(when, sink);
    // The interfaces as the consumers source lists them: when they changed, and when a device
    // came back.
    if (ipoib_ && (ipoib_->take_changed() || reseen)) {
        const auto gid_of = [this](const PortRef& p) -> std::optional<Gid> {
            auto it = ipoib_gids_.find(p);
            if (it == ipoib_gids_.end()) return std::nullopt;
            return it->second;
        };
        for (auto& inv : ipoib_->inventories(gid_of)) {
            const auto* d = find_device(inv.device);
            if (d && d->present) emit(when, std::move(inv), sink);
        }
    }
}

Result<void> FabricState::apply_holder_exit(const HolderExitEffect& effect, TimePoint when) {
    grow_holders(when);  // it registered until the moment it exited
    bool found = false;
    for (auto& h : holders_) {
        if (!h.declared.pid || *h.declared.pid != effect.pid) continue;
        found = true;
        if (effect.gone) {
            h.gone = true;
        } else {
            h.owner_gone = true;
        }
    }
    if (!found) return make_error("no MR holder with pid " + std::to_string(effect.pid));
    return {};
}

Result<void> FabricState::apply_holder_rate(const HolderRateStep& step, TimePoint when) {
    bool found = false;
    for (auto& h : holders_) found = found || (h.declared.pid && *h.declared.pid == step.pid);
    if (!found) return make_error("no MR holder with pid " + std::to_string(step.pid));
    grow_holders(when);  // what the old rate registered up to now
    for (auto& h : holders_) {
        if (h.declared.pid && *h.declared.pid == step.pid) h.declared.per_second = step.per_second;
    }
    return {};
}

void FabricState::grow_holders(TimePoint when) {
    const double seconds = last_growth_ && when > *last_growth_
                               ? std::chrono::duration<double>(when - *last_growth_).count()
                               : 0.0;
    if (!last_growth_ || when > *last_growth_) last_growth_ = when;
    for (auto& h : holders_) {
        if (!h.owner_gone && !h.gone) h.mrs += seconds * static_cast<double>(h.declared.per_second);
    }
}

void FabricState::sample_mr_listings(TimePoint when, sources::ObservationSink& sink) {
    if (holders_.empty()) return;
    grow_holders(when);
    for (const auto& d : devices_) {
        if (!d.present) continue;
        MrInventory inv;
        inv.device = d.info.device;
        bool holds = false;
        // The declared MRs are listed too while they live; the holders' MRs number after them.
        uint64_t next_id = 1;
        for (const auto& m : mrs_) {
            if (m.device != inv.device) continue;
            next_id = std::max(next_id, m.id + 1);
            if (deregistered_.count({m.device, m.id})) continue;
            MrInventory::Entry e;
            e.mr = m.id;
            e.pid = m.owner.pid;
            e.comm = m.owner.name;
            inv.mrs.push_back(std::move(e));
        }
        for (const auto& h : holders_) {
            if (h.declared.device != inv.device) continue;
            holds = true;
            if (h.gone) continue;
            const auto n = static_cast<uint64_t>(h.mrs);
            for (uint64_t i = 0; i < n; ++i) {
                MrInventory::Entry e;
                e.mr = next_id++;
                if (!h.owner_gone) {
                    e.pid = h.declared.pid;
                    e.comm = h.declared.comm;
                }
                e.owner_gone = h.owner_gone;
                e.length = h.declared.size;
                inv.mrs.push_back(std::move(e));
            }
        }
        if (holds) emit(when, std::move(inv), sink);
    }
}

void FabricState::sample_port(const PortRef& ref, TimePoint when, sources::ObservationSink& sink) {
    const auto* dev = find_device(ref.device);
    if (dev == nullptr || !dev->present) return;
    const auto* port = find_port(ref);
    if (port == nullptr) return;
    emit(when, port->state, sink);
    emit_tables(*dev, *port, when, sink);
}

const PKeyTable* FabricState::table(const PortRef& ref, PKeyView view) const {
    const auto* port = find_port(ref);
    if (port == nullptr) return nullptr;
    auto it = port->tables.find(view);
    return it == port->tables.end() ? nullptr : &it->second;
}

const ScenarioCounter* FabricState::counter(const PortRef& ref, std::string_view name) const {
    const auto* port = find_port(ref);
    if (port == nullptr) return nullptr;
    for (const auto& c : port->counters) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

const PortStateSample* FabricState::port_state(const PortRef& ref) const {
    const auto* port = find_port(ref);
    return port == nullptr ? nullptr : &port->state;
}

bool FabricState::device_present(std::string_view device) const {
    const auto* dev = find_device(device);
    return dev != nullptr && dev->present;
}

}  // namespace rdmadiag::sim
