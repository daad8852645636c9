// The exporter's own health, and per-source health the way node_exporter reports its collectors.
#include <chrono>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {
double epoch_seconds(TimePoint t) {
    return to_seconds(t.time_since_epoch());
}
}  // namespace

void add_exporter_metrics(const Snapshot& snap, MetricWriter& out) {
    out.gauge("rdmadiag_build_info", "rdmadiag version; always 1.", {{"version", RDMADIAG_VERSION}},
              1);
    out.gauge("rdmadiag_snapshot_sequence",
              "Sequence number of the snapshot this scrape was built from.", {},
              static_cast<double>(snap.sequence));
    if (snap.sequence > 0) {
        out.gauge("rdmadiag_snapshot_timestamp_seconds",
                  "Collector clock when the served snapshot was made, seconds since the epoch.", {},
                  epoch_seconds(snap.time));
    }
}

void add_source_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                        MetricWriter& out) {
    for (const auto& s : snap.sources) {
        MetricLabels l{{"source", s.name}};
        out.gauge("rdmadiag_source_up",
                  "Whether the source is running and has what it needs (1) or not (0, see "
                  "/api/v1/status for the reason).",
                  l, s.up ? 1 : 0);
        out.counter("rdmadiag_source_observations_total", "Observations the source produced.", l,
                    static_cast<double>(s.observations));
        out.counter("rdmadiag_source_errors_total",
                    "Values the source could not read (each costs only itself).", l,
                    static_cast<double>(s.errors));
        if (s.last_seen.time_since_epoch() != Duration::zero()) {
            out.gauge("rdmadiag_source_last_observation_timestamp_seconds",
                      "When the source last produced an observation, seconds since the epoch.", l,
                      epoch_seconds(s.last_seen));
        }
    }
    if (!stats) return;
    for (const auto& t : stats->sources) {
        MetricLabels l{{"source", t.name}};
        out.counter("rdmadiag_source_polls_total",
                    "Times the collector ran the source (polls and readable event descriptors).", l,
                    static_cast<double>(t.polls));
        out.counter("rdmadiag_source_refreshes_total",
                    "Port re-reads the engine asked the source for.", l,
                    static_cast<double>(t.refreshes));
        out.counter("rdmadiag_source_poll_seconds_total", "Wall time spent in the source's polls.",
                    l, to_seconds(t.total_duration));
        if (t.polled && t.polls > 0) {
            out.gauge("rdmadiag_source_last_poll_duration_seconds",
                      "Wall time of the source's last poll.", l, to_seconds(t.last_duration));
        }
        for (const auto& f : t.figures) {
            if (f.kind == common::Figure::Kind::counter) {
                out.counter("rdmadiag_" + f.name, f.help, l, f.value);
            } else {
                out.gauge("rdmadiag_" + f.name, f.help, l, f.value);
            }
        }
    }
}

}  // namespace rdmadiag::prom
