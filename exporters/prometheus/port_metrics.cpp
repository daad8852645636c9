// What each device and port is, and the state it is in.
#include <cstdio>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

std::string hex_guid(uint64_t guid) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
    return buf;
}

std::string optional_number(const std::optional<uint32_t>& v) {
    return v ? std::to_string(*v) : std::string();
}

}  // namespace

void add_device_metrics(const Snapshot& snap, MetricWriter& out) {
    out.begin("rdmadiag_device_info",
              "Facts about an RDMA device or subnet node; always 1. node_desc is its "
              "NodeDescription, the name a person knows it by.",
              MetricType::gauge);
    for (const auto& d : snap.devices) {
        const auto& i = d.info;
        const std::string guid = i.node_guid ? hex_guid(*i.node_guid) : "";
        out.sample({{"device", i.device},
                    {"node_type", i.node_type.value_or("")},
                    {"transport", to_string(i.transport)},
                    {"fw_ver", i.fw_ver.value_or("")},
                    {"hca_type", i.hca_type.value_or("")},
                    {"board_id", i.board_id.value_or("")},
                    {"node_guid", guid},
                    {"node_desc", i.node_desc.value_or("")}},
                   1);
    }
    out.begin("rdmadiag_device_present",
              "Whether the device was seen in the last enumeration (0: it went away).",
              MetricType::gauge);
    for (const auto& d : snap.devices) out.sample({{"device", d.info.device}}, d.present ? 1 : 0);
    out.begin("rdmadiag_device_reachable",
              "Whether the node answered the last MAD sweep (0: reason says how it did not: "
              "no_answer or error; /api/v1/snapshot has the words).",
              MetricType::gauge);
    for (const auto& d : snap.devices) {
        const auto& i = d.info;
        if (!i.reachable) continue;
        out.sample({{"device", i.device}, {"reason", i.unreachable_kind}}, *i.reachable ? 1 : 0);
    }
}

void add_port_metrics(const Snapshot& snap, MetricWriter& out) {
    out.begin("rdmadiag_port_info",
              "Facts about a port; always 1. lid and sm_lid are the port's LID and its subnet "
              "manager's.",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        const auto& s = p.info;
        const std::string guid = s.port_guid ? hex_guid(*s.port_guid) : "";
        const std::string lid = optional_number(s.lid);
        const std::string sm_lid = optional_number(s.sm_lid);
        PortLabels l(p.ref);
        l.with("link_layer", s.link_layer ? to_string(*s.link_layer) : "")
            .with("rate", s.rate ? std::string_view(*s.rate) : "")
            .with("port_guid", guid)
            .with("lid", lid)
            .with("sm_lid", sm_lid);
        out.sample(l.span(), 1);
    });
    out.begin("rdmadiag_port_present", "Whether the port was seen on the last read.",
              MetricType::gauge);
    for_each_port(snap,
                  [&](const PortSnapshot& p) { out.sample(PortLabels(p.ref).span(), p.present); });
    out.begin("rdmadiag_port_state",
              "IBA PortState: 1 down, 2 init, 3 armed, 4 active, 5 active_defer.",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (p.info.state) out.sample(PortLabels(p.ref).span(), static_cast<double>(*p.info.state));
    });
    out.begin("rdmadiag_port_physical_state",
              "IBA PortPhysicalState: 2 polling, 3 disabled, 5 link up, ...", MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (p.info.phys_state) out.sample(PortLabels(p.ref).span(), *p.info.phys_state);
    });
    if (!out.full()) return;
    out.begin("rdmadiag_port_active", "Whether the port's logical state is ACTIVE.",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (p.info.state)
            out.sample(PortLabels(p.ref).span(), *p.info.state == PortState::active ? 1 : 0);
    });
    out.begin("rdmadiag_port_lid", "The port's LID.", MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (p.info.lid) out.sample(PortLabels(p.ref).span(), *p.info.lid);
    });
    out.begin("rdmadiag_port_sm_lid", "LID of the subnet manager the port follows.",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (p.info.sm_lid) out.sample(PortLabels(p.ref).span(), *p.info.sm_lid);
    });
}

}  // namespace rdmadiag::prom
