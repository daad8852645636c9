#pragma once
// The metrics rdmadiag exports, one function per concern, each reading only the snapshot (and
// the collector's own timings) and writing its families whole. Names follow Prometheus
// conventions: rdmadiag_ prefix, base units, _total for counters, {device,port} labels. Nothing is
// per MR or per P_Key table entry: those details live in the JSON API. docs/metrics.md lists
// every name, and which ones only `MetricsDetail::full` exports.

#include <array>
#include <span>

#include "collector/model/snapshot.hpp"
#include "collector/publish/collector_stats.hpp"
#include "exporters/prometheus/metric_writer.hpp"

namespace rdmadiag::prom {

void add_exporter_metrics(const Snapshot& snap, MetricWriter& out);
void add_device_metrics(const Snapshot& snap, MetricWriter& out);
void add_port_metrics(const Snapshot& snap, MetricWriter& out);
void add_pkey_metrics(const Snapshot& snap, MetricWriter& out);
// The coherence of the kernel's GID cache per port; the views per port at full detail.
void add_gid_metrics(const Snapshot& snap, MetricWriter& out);
// Member ports per partition, view and membership; with an intent, the ports that differ from it.
void add_partition_metrics(const Snapshot& snap, MetricWriter& out);
void add_consumer_metrics(const Snapshot& snap, MetricWriter& out);
void add_counter_metrics(const Snapshot& snap, MetricWriter& out);
void add_event_metrics(const Snapshot& snap, MetricWriter& out);
void add_finding_metrics(const Snapshot& snap, MetricWriter& out);
void add_mr_metrics(const Snapshot& snap, MetricWriter& out);
void add_source_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                        MetricWriter& out);
// This process's resident size and heap, as the collector last read them.
void add_process_metrics(const publish::CollectorStats& stats, MetricWriter& out);

// All of the above, in this order. Returns the number of samples written.
uint64_t write_snapshot_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                                MetricsDetail detail, TextSink& out);
// The same, as one string (tests, small snapshots).
std::string snapshot_metrics_text(const Snapshot& snap,
                                  const publish::CollectorStats* stats = nullptr,
                                  MetricsDetail detail = MetricsDetail::standard);

// {device, port} and up to six more labels, without a heap allocation per sample.
class PortLabels {
public:
    explicit PortLabels(const PortRef& ref) : device_(ref.device), port_(ref.port) {}
    PortLabels(const PortLabels&) = delete;
    PortLabels& operator=(const PortLabels&) = delete;

    PortLabels& with(std::string_view name, std::string_view value);
    std::span<const Label> span();

private:
    static constexpr size_t kMax = 8;
    std::string_view device_;
    LabelNumber port_;
    std::array<Label, kMax> labels_{};
    size_t extra_ = 0;
};

// Calls fn(port) for every port of every device, in snapshot order.
template <class Fn>
void for_each_port(const Snapshot& snap, Fn&& fn) {
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) fn(p);
    }
}

}  // namespace rdmadiag::prom
