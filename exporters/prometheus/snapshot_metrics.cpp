#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

MetricLabels port_labels(const PortRef& ref) {
    return {{"device", ref.device}, {"port", std::to_string(ref.port)}};
}

std::vector<prometheus::MetricFamily> snapshot_metrics(const Snapshot& snap,
                                                       const publish::CollectorStats* stats) {
    MetricWriter out;
    add_exporter_metrics(snap, out);
    add_source_metrics(snap, stats, out);
    add_device_metrics(snap, out);
    add_port_metrics(snap, out);
    add_pkey_metrics(snap, out);
    add_counter_metrics(snap, out);
    add_event_metrics(snap, out);
    add_finding_metrics(snap, out);
    add_mr_metrics(snap, out);
    return out.take();
}

}  // namespace rdmadiag::prom
