#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

PortLabels& PortLabels::with(std::string_view name, std::string_view value) {
    if (2 + extra_ < kMax) labels_[2 + extra_++] = Label{name, value};
    return *this;
}

std::span<const Label> PortLabels::span() {
    // Set here rather than at construction, so the port's digits are always this object's own.
    labels_[0] = Label{"device", device_};
    labels_[1] = Label{"port", port_.view()};
    return {labels_.data(), 2 + extra_};
}

uint64_t write_snapshot_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                                MetricsDetail detail, TextSink& sink) {
    MetricWriter out(sink, detail);
    add_exporter_metrics(snap, out);
    add_source_metrics(snap, stats, out);
    add_device_metrics(snap, out);
    add_port_metrics(snap, out);
    add_pkey_metrics(snap, out);
    add_gid_metrics(snap, out);
    add_partition_metrics(snap, out);
    add_consumer_metrics(snap, out);
    add_counter_metrics(snap, out);
    add_event_metrics(snap, out);
    add_finding_metrics(snap, out);
    add_mr_metrics(snap, out);
    if (stats) add_process_metrics(*stats, out);
    return out.samples();
}

std::string snapshot_metrics_text(const Snapshot& snap, const publish::CollectorStats* stats,
                                  MetricsDetail detail) {
    std::string text;
    StringSink sink(text);
    write_snapshot_metrics(snap, stats, detail, sink);
    return text;
}

}  // namespace rdmadiag::prom
