// Port counters as monotonic totals (across resets, wraps and saturation), with flags for the
// narrow counters that sit at their maximum and so stopped counting.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

// sysfs and the PMA count these in units of 4 octets.
constexpr double kDataCounterUnit = 4.0;

}  // namespace

void add_counter_metrics(const Snapshot& snap, MetricWriter& out) {
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            for (const auto& c : p.counters) {
                auto l = port_labels(p.ref);
                l.push_back({"counter", c.name});
                l.push_back({"kind", std::string(to_string(c.kind))});
                out.counter("rdmadiag_port_stat_total",
                            "Port counter as a monotonic total, in the counter's own unit "
                            "(sysfs file name or IBA field).",
                            l, static_cast<double>(c.total));
                out.counter("rdmadiag_port_stat_resets_total",
                            "Times the counter went backwards and was taken as a reset.", l,
                            static_cast<double>(c.resets));
                if (c.width < 64) {
                    out.gauge("rdmadiag_port_stat_saturated",
                              "Whether a narrow counter sits at its maximum: events beyond it are "
                              "not counted until it is cleared.",
                              l, c.saturated ? 1 : 0);
                }
                if (c.kind == CounterKind::pma &&
                    (c.name == "port_xmit_data" || c.name == "port_rcv_data")) {
                    bool xmit = c.name == "port_xmit_data";
                    out.counter(xmit ? "rdmadiag_port_transmitted_bytes_total"
                                     : "rdmadiag_port_received_bytes_total",
                                xmit ? "Data octets transmitted on the port."
                                     : "Data octets received on the port.",
                                port_labels(p.ref),
                                static_cast<double>(c.total) * kDataCounterUnit);
                }
            }
        }
    }
}

}  // namespace rdmadiag::prom
