#include "collector/sim/ipoib_emulation.hpp"

#include <map>

namespace rdmadiag::sim {

void IpoibEmulation::look_up(Interface& i, const PKeyTable& table) {
    if (i.declared.parent.empty()) {
        i.index = table.keys.empty() ? std::nullopt : std::optional<uint16_t>(0);
        if (i.index) i.pkey = table.keys[0];
    } else {
        i.index = find_pkey_index(table, i.pkey);
    }
}

IpoibEmulation::IpoibEmulation(const std::vector<ScenarioIpoib>& declared,
                               const TableOf& device_table) {
    for (const auto& d : declared) {
        Interface i;
        i.declared = d;
        i.pkey = d.pkey;
        if (const PKeyTable* table = device_table(d.port)) look_up(i, *table);
        i.carrier = i.index.has_value();
        i.carrier_changes = i.carrier ? 1 : 0;  // it came up once
        interfaces_.push_back(std::move(i));
    }
}

void IpoibEmulation::on_pkey_change(const PortRef& port, const PKeyTable& table) {
    for (auto& i : interfaces_) {
        if (i.declared.port != port) continue;
        const auto old_index = i.index;
        const uint16_t old_key = i.pkey;
        look_up(i, table);
        const bool restarted = i.declared.parent.empty() ? i.pkey != old_key : i.index != old_index;
        if (!restarted) continue;
        changed_ = true;
        if (i.index && i.carrier) {
            i.carrier_changes += 2;  // down and up again
        } else if (i.index.has_value() != i.carrier) {
            i.carrier = i.index.has_value();
            i.carrier_changes += 1;
        }
    }
}

bool IpoibEmulation::take_changed() {
    const bool was = changed_;
    changed_ = false;
    return was;
}

std::vector<ConsumerInventory> IpoibEmulation::inventories(
    const std::function<std::optional<Gid>(const PortRef&)>& gid_of) const {
    std::map<std::string, ConsumerInventory> by_device;
    for (const auto& i : interfaces_) {
        auto& inv = by_device[i.declared.port.device];
        inv.device = i.declared.port.device;
        Consumer c;
        c.kind = ConsumerKind::ipoib;
        c.name = i.declared.name;
        c.device = i.declared.port.device;
        c.port = i.declared.port.port;
        c.pkey = i.pkey;
        c.qp_type = "UD";
        c.mode = i.declared.connected ? "connected" : "datagram";
        c.state = i.carrier ? "UP" : "DOWN";
        c.carrier = i.carrier;
        c.carrier_changes = i.carrier_changes;
        c.parent = i.declared.parent;
        c.gid = gid_of(i.declared.port);
        inv.consumers.push_back(std::move(c));
    }
    std::vector<ConsumerInventory> out;
    for (auto& [device, inv] : by_device) out.push_back(std::move(inv));
    return out;
}

}  // namespace rdmadiag::sim
