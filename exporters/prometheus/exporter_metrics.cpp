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
    out.single("rdmadiag_build_info", "rdmadiag version; always 1.", MetricType::gauge,
               {{"version", RDMADIAG_VERSION}}, 1);
    out.single("rdmadiag_snapshot_sequence",
               "Sequence number of the snapshot this scrape was built from.", MetricType::gauge, {},
               static_cast<double>(snap.sequence));
    if (snap.sequence > 0) {
        out.single("rdmadiag_snapshot_timestamp_seconds",
                   "Collector clock when the served snapshot was made, seconds since the epoch.",
                   MetricType::gauge, {}, epoch_seconds(snap.time));
    }
}

void add_source_metrics(const Snapshot& snap, const publish::CollectorStats* stats,
                        MetricWriter& out) {
    // One family over every source: fn(source) returns the value, or nullopt for no sample.
    auto per_source = [&out](const auto& list, std::string_view name, std::string_view help,
                             MetricType type, auto&& fn) {
        out.begin(name, help, type);
        for (const auto& s : list) {
            if (std::optional<double> v = fn(s)) out.sample({{"source", s.name}}, *v);
        }
    };
    using S = const SourceSnapshot&;
    per_source(snap.sources, "rdmadiag_source_up",
               "Whether the source is running and has what it needs (1) or not (0, see "
               "/api/v1/status for the reason).",
               MetricType::gauge, [](S s) -> std::optional<double> { return s.up ? 1 : 0; });
    per_source(snap.sources, "rdmadiag_source_observations_total",
               "Observations the source produced.", MetricType::counter,
               [](S s) -> std::optional<double> { return s.observations; });
    per_source(snap.sources, "rdmadiag_source_errors_total",
               "Values the source could not read (each costs only itself).", MetricType::counter,
               [](S s) -> std::optional<double> { return s.errors; });
    per_source(snap.sources, "rdmadiag_source_last_observation_timestamp_seconds",
               "When the source last produced an observation, seconds since the epoch.",
               MetricType::gauge, [](S s) -> std::optional<double> {
                   if (s.last_seen.time_since_epoch() == Duration::zero()) return std::nullopt;
                   return epoch_seconds(s.last_seen);
               });
    if (!stats) return;
    using T = const publish::SourceTiming&;
    per_source(stats->sources, "rdmadiag_source_polls_total",
               "Times the collector ran the source (polls and readable event descriptors).",
               MetricType::counter, [](T t) -> std::optional<double> { return t.polls; });
    per_source(stats->sources, "rdmadiag_source_refreshes_total",
               "Port re-reads the engine asked the source for.", MetricType::counter,
               [](T t) -> std::optional<double> { return t.refreshes; });
    per_source(stats->sources, "rdmadiag_source_poll_seconds_total",
               "Wall time spent in the source's polls.", MetricType::counter,
               [](T t) -> std::optional<double> { return to_seconds(t.total_duration); });
    per_source(stats->sources, "rdmadiag_source_last_poll_duration_seconds",
               "Wall time of the source's last poll.", MetricType::gauge,
               [](T t) -> std::optional<double> {
                   if (!t.polled || t.polls == 0) return std::nullopt;
                   return to_seconds(t.last_duration);
               });
    // A source's own figures, one family per name in the order the sources first give them.
    std::vector<const common::Figure*> names;
    for (const auto& t : stats->sources) {
        for (const auto& f : t.figures) {
            bool seen = false;
            for (const auto* n : names) seen = seen || n->name == f.name;
            if (!seen) names.push_back(&f);
        }
    }
    for (const auto* first : names) {
        const auto type =
            first->kind == common::Figure::Kind::counter ? MetricType::counter : MetricType::gauge;
        per_source(stats->sources, "rdmadiag_" + first->name, first->help, type,
                   [first](T t) -> std::optional<double> {
                       for (const auto& f : t.figures) {
                           if (f.name == first->name) return f.value;
                       }
                       return std::nullopt;
                   });
    }
}

}  // namespace rdmadiag::prom
