#include "collector/sources/mad/mad_observations.hpp"

#include "collector/sources/mad/link_rate.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace rdmadiag::mad {

namespace {

std::string node_type_name(uint8_t type) {
    switch (type) {
        case 1:
            return "CA";
        case 2:
            return "switch";
        case 3:
            return "router";
        default:
            return "unknown";
    }
}

// A node answered when any of its ports answered PortInfo. When none did, the first error says
// why; its kind is "no_answer" when nothing came back (timeouts, a node given up), "error" when
// an answer came with an error status.
void mark_reachability(const NodeReading& node, DeviceInfo& info) {
    const bool answered = node_answered(node);
    info.reachable = answered;
    if (answered) return;
    std::string reason;
    for (const PortReading& p : node.ports) {
        if (!p.errors.empty()) {
            reason = p.errors.front();
            break;
        }
    }
    if (reason.empty() && !node.errors.empty()) reason = node.errors.front();
    if (reason.empty()) reason = "no port of the node was read";
    info.unreachable_reason = reason;
    const bool silent = reason.find("no answer") != std::string::npos ||
                        reason.find("not asked") != std::string::npos;
    info.unreachable_kind = silent ? "no_answer" : "error";
}

// A port's GID table from a prefix and its GUIDs by index: GID 0 is the prefix with GUID 0, which
// is the port GUID; when the GUIDs were not read (a subnet sweep) or their block did not answer,
// the port GUID discovery knows stands in for it. Zero GUIDs are no entries.
GidTable gid_table(uint64_t prefix, std::optional<uint64_t> port_guid,
                   const std::vector<uint64_t>& guids, const std::vector<uint16_t>& unreadable) {
    GidTable table;
    auto unread = [&](uint16_t index) {
        return std::find(unreadable.begin(), unreadable.end(), index) != unreadable.end();
    };
    std::optional<uint64_t> guid0 = port_guid;
    if (!guids.empty() && !unread(0) && guids[0] != 0) guid0 = guids[0];
    if (guid0) {
        table.entries.push_back(GidEntry{0, Gid::from_parts(prefix, *guid0), GidType::ib, {}});
    } else {
        table.unreadable.push_back(0);
    }
    for (size_t i = 1; i < guids.size(); ++i) {
        const auto index = static_cast<uint16_t>(i);
        if (unread(index)) {
            table.unreadable.push_back(index);
        } else if (guids[i] != 0) {
            table.entries.push_back(
                GidEntry{index, Gid::from_parts(prefix, guids[i]), GidType::ib, {}});
        }
    }
    return table;
}

// The SMA's GIDs of a port that has them (PortInfo read), and the SM's where the SA was asked.
template <class Emit>
void emit_gid_views(const NodeReading& node, const PortReading& port, const PortRef& ref,
                    Emit& emit) {
    if (!port.info || !port_has_gids(node, port)) return;
    static const std::vector<uint64_t> kNone;
    static const std::vector<uint16_t> kNoIndex;
    const PortGuidTable* read = port.guid_table.get();
    const std::optional<uint64_t> guid = known_port_guid(node, port);
    emit(GidTableSample{ref, GidView::sma,
                        gid_table(port.info->gid_prefix, guid, read ? read->sma : kNone,
                                  read ? read->sma_unreadable : kNoIndex)});
    if (read && read->sm_prefix) {
        emit(GidTableSample{ref, GidView::sm,
                            gid_table(*read->sm_prefix, guid, read->sm, read->sm_unreadable)});
    }
}

}  // namespace

std::vector<Observation> reading_to_observations(const SubnetReading& reading,
                                                 const ObservationNaming& naming, TimePoint now,
                                                 const std::string& source, bool whole) {
    std::vector<Observation> out;
    emit_observations(reading, naming, now, source, whole,
                      [&out](Observation obs) { out.push_back(std::move(obs)); });
    return out;
}

void emit_observations(const SubnetReading& reading, const ObservationNaming& naming, TimePoint now,
                       const std::string& source, bool whole,
                       const std::function<void(Observation)>& emit_one) {
    auto emit = [&](ObservationBody body) { emit_one(Observation{now, source, std::move(body)}); };
    DeviceList list;
    for (const NodeReading& node : reading.nodes) {
        std::string device = !naming.local_name.empty() && node.info.node_guid == naming.local_guid
                                 ? naming.local_name
                                 : guid_device_name(node.info.node_guid);
        list.devices.push_back(device);
        DeviceInfo info;
        info.device = device;
        info.node_type = node_type_name(node.info.node_type);
        info.node_guid = node.info.node_guid;
        info.sys_image_guid = node.info.sys_image_guid;
        if (!node.description.empty()) info.node_desc = node.description;
        if (uint16_t lid = node.lid(); lid != 0) info.lid = lid;
        info.transport = Transport::ib;
        mark_reachability(node, info);
        emit(info);
        for (const std::string& e : node.errors) emit(SampleError{device, e, 0});
        for (const PortReading& port : node.ports) {
            PortRef ref{device, port.port};
            if (port.info) {
                const PortInfo& pi = *port.info;
                PortStateSample s;
                s.port = ref;
                s.port_guid = port.guid;
                if (node.is_switch() && port.port == 0) s.port_guid = node.info.port_guid;
                if (pi.port_state >= 1 && pi.port_state <= 4)
                    s.state = static_cast<PortState>(pi.port_state);
                s.phys_state = pi.phys_state;
                s.phys_state_text = std::string(phys_state_name(pi.phys_state));
                // A switch's external ports share port 0's LID; PortInfo gives 0 there.
                s.lid = node.is_switch() ? node.lid() : pi.lid;
                s.sm_lid = pi.master_sm_lid;
                s.lmc = pi.lmc;
                s.link_layer = LinkLayer::infiniband;
                s.cap_mask = pi.capability_mask;
                if (port.peer) {
                    s.peer_node_guid = port.peer->node_guid;
                    s.peer_port = port.peer->port;
                }
                // Only a switch's external ports enforce partitions on their links.
                if (node.is_switch() && port.port != 0) {
                    s.partition_enforcement_inbound = pi.partition_enforcement_inbound;
                    s.partition_enforcement_outbound = pi.partition_enforcement_outbound;
                }
                // A switch's port 0 has no link of its own; a link that is not up has no rate.
                const bool linked =
                    pi.phys_state == kPhysLinkUp && !(node.is_switch() && port.port == 0);
                if (linked) {
                    s.rate = link_rate_text(pi.link_width_active, pi.link_speed_active,
                                            pi.link_speed_ext_active,
                                            port.mlnx_ext && port.mlnx_ext->fdr10());
                }
                emit(s);
                const std::pair<std::string_view, uint16_t> violations[] = {
                    {"m_key_violations", pi.m_key_violations},
                    {"p_key_violations", pi.p_key_violations},
                    {"q_key_violations", pi.q_key_violations}};
                for (const auto& [name, value] : violations) {
                    emit(CounterSample{ref, std::string(name), value,
                                       counter_width(CounterKind::portinfo, name),
                                       CounterKind::portinfo});
                }
            }
            if (port.sma_pkeys) {
                PKeyTable t{*port.sma_pkeys, port.sma_unreadable};
                emit(PKeyTableSample{ref, PKeyView::sma, std::move(t)});
            }
            if (port.sm_pkeys)
                emit(PKeyTableSample{ref, PKeyView::sm, PKeyTable{*port.sm_pkeys, {}}});
            emit_gid_views(node, port, ref, emit);
            for (const PmaCounter& c : port.counters) {
                emit(CounterSample{ref, std::string(c.name), c.value, c.width, CounterKind::pma});
            }
            for (const std::string& e : port.errors) emit(SampleError{ref.to_string(), e, 0});
        }
    }
    for (const std::string& e : reading.errors) emit(SampleError{"mad sweep", e, 0});
    // A sweep that reached no node at all (the local port down, the fabric not answering) knows
    // nothing of the subnet: it must not declare every node it saw before gone. The source is down
    // and says why; the devices keep what was last read.
    if (whole && !reading.nodes.empty()) emit(list);
}

}  // namespace rdmadiag::mad
