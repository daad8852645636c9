// Consumers as counts: per port, P_Key and kind, how many IPoIB interfaces, SRP hosts, RDMA CM IDs
// and QPs use it. Never a series per QP or per CM ID: a host with thousands of QPs adds a handful
// of series; the consumers themselves are in /api/v1/consumers.
#include <map>
#include <tuple>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_consumer_metrics(const Snapshot& snap, MetricWriter& out) {
    if (!snap.consumers) return;
    // device, port, P_Key ("none" for QPs, whose key the kernel does not export), kind.
    using Key = std::tuple<std::string, uint32_t, std::string, ConsumerKind>;
    std::map<Key, double> counts;
    for (const auto& inv : snap.consumers->devices) {
        for (const auto& c : inv.consumers) {
            const std::string pkey = c.pkey ? format_pkey(*c.pkey) : "none";
            counts[Key{inv.device, c.port, pkey, c.kind}] += c.count;
        }
    }
    out.begin("rdmadiag_port_consumers",
              "Consumers of a port by P_Key and kind (ipoib, srp, cm_id, qp): IPoIB interfaces, "
              "SRP hosts, RDMA CM IDs and QPs; pkey \"none\" where the kernel does not say (QPs, "
              "CM IDs on RoCE). Port 0: not bound to a port yet.",
              MetricType::gauge);
    for (const auto& [key, n] : counts) {
        const auto& [device, port, pkey, kind] = key;
        out.sample({{"device", device},
                    {"port", std::to_string(port)},
                    {"pkey", pkey},
                    {"kind", to_string(kind)}},
                   n);
    }
    out.begin("rdmadiag_consumers_listing_complete",
              "1 when the last listing of a device's consumers was whole, 0 when a dump was "
              "refused or cut short (what is missing proves nothing then).",
              MetricType::gauge);
    for (const auto& inv : snap.consumers->devices)
        out.sample({{"device", inv.device}}, inv.complete ? 1 : 0);
}

}  // namespace rdmadiag::prom
