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

}  // namespace

void add_device_metrics(const Snapshot& snap, MetricWriter& out) {
    for (const auto& d : snap.devices) {
        const auto& i = d.info;
        out.gauge("rdmadiag_device_info", "Facts about an RDMA device; always 1.",
                  {{"device", d.info.device},
                   {"node_type", i.node_type.value_or("")},
                   {"transport", std::string(to_string(i.transport))},
                   {"fw_ver", i.fw_ver.value_or("")},
                   {"hca_type", i.hca_type.value_or("")},
                   {"board_id", i.board_id.value_or("")},
                   {"node_guid", i.node_guid ? hex_guid(*i.node_guid) : ""}},
                  1);
        out.gauge("rdmadiag_device_present",
                  "Whether the device was seen in the last enumeration (0: it went away).",
                  {{"device", d.info.device}}, d.present ? 1 : 0);
        if (i.reachable) {
            out.gauge("rdmadiag_device_reachable",
                      "Whether the node answered the last MAD sweep (0: reason says how it did "
                      "not: no_answer or error; /api/v1/snapshot has the words).",
                      {{"device", d.info.device}, {"reason", i.unreachable_kind}},
                      *i.reachable ? 1 : 0);
        }
    }
}

void add_port_metrics(const Snapshot& snap, MetricWriter& out) {
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            auto labels = port_labels(p.ref);
            const auto& s = p.info;
            auto info = labels;
            info.push_back(
                {"link_layer", s.link_layer ? std::string(to_string(*s.link_layer)) : ""});
            info.push_back({"rate", s.rate.value_or("")});
            info.push_back({"port_guid", s.port_guid ? hex_guid(*s.port_guid) : ""});
            out.gauge("rdmadiag_port_info", "Facts about a port; always 1.", info, 1);
            out.gauge("rdmadiag_port_present", "Whether the port was seen on the last read.",
                      labels, p.present ? 1 : 0);
            if (s.state) {
                out.gauge("rdmadiag_port_state",
                          "IBA PortState: 1 down, 2 init, 3 armed, 4 active, 5 active_defer.",
                          labels, static_cast<double>(*s.state));
                out.gauge("rdmadiag_port_active", "Whether the port's logical state is ACTIVE.",
                          labels, *s.state == PortState::active ? 1 : 0);
            }
            if (s.phys_state) {
                out.gauge("rdmadiag_port_physical_state",
                          "IBA PortPhysicalState: 2 polling, 3 disabled, 5 link up, ...", labels,
                          *s.phys_state);
            }
            if (s.lid) out.gauge("rdmadiag_port_lid", "The port's LID.", labels, *s.lid);
            if (s.sm_lid) {
                out.gauge("rdmadiag_port_sm_lid", "LID of the subnet manager the port follows.",
                          labels, *s.sm_lid);
            }
        }
    }
}

}  // namespace rdmadiag::prom
