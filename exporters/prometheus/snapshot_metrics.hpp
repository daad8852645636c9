#pragma once
// The metrics rdmadiag exports, one function per concern, each reading only the snapshot (and
// the collector's own timings). Names follow Prometheus conventions: rdmadiag_ prefix, base
// units, _total for counters, {device,port} labels. Nothing is per MR or per P_Key table entry:
// those details live in the JSON API. docs/metrics.md lists every name.

#include <vector>

#include <prometheus/metric_family.h>

#include "collector/model/snapshot.hpp"
#include "collector/publish/collector_stats.hpp"
#include "exporters/prometheus/metric_writer.hpp"

namespace rdmadiag::prom {

void add_exporter_metrics(const Snapshot& snap, MetricWriter& out);
void add_device_metrics(const Snapshot& snap, MetricWriter& out);
void add_port_metrics(const Snapshot& snap, MetricWriter& out);
void add_pkey_metrics(const Snapshot& snap, MetricWriter& out);
void add_counter_metrics(const Snapshot& snap, MetricWriter& out);
void add_event_metrics(const Snapshot& snap, MetricWriter& out);
void add_finding_metrics(const Snapshot& snap, MetricWriter& out);
void add_mr_metrics(const Snapshot& snap, MetricWriter& out);
void add_source_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                        MetricWriter& out);

// All of the above, in this order.
std::vector<prometheus::MetricFamily> snapshot_metrics(
    const Snapshot& snap, const publish::CollectorStats* stats = nullptr);

MetricLabels port_labels(const PortRef& ref);

}  // namespace rdmadiag::prom
