// P_Key tables per view, and the coherence of the event-driven cache with the device.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

// One family over every (port, view) pair: fn(port, view) returns the value, or nullopt for
// no sample.
template <class Fn>
void per_view(const Snapshot& snap, MetricWriter& out, std::string_view name, std::string_view help,
              MetricType type, Fn&& fn) {
    out.begin(name, help, type);
    for_each_port(snap, [&](const PortSnapshot& p) {
        for (const auto& v : p.pkeys.views) {
            std::optional<double> value = fn(p, v);
            if (!value) continue;
            PortLabels l(p.ref);
            l.with("view", to_string(v.view));
            out.sample(l.span(), *value);
        }
    });
}

// Only ports whose async events some source watches can be judged: elsewhere the cache series
// are absent rather than a reassuring 0.
bool cache_judged(const PortSnapshot& p) {
    return p.pkeys.cache != CacheJudgement::not_watched && p.pkeys.cache != CacheJudgement::unknown;
}

}  // namespace

void add_pkey_metrics(const Snapshot& snap, MetricWriter& out) {
    using V = const PKeyViewState&;
    using P = const PortSnapshot&;
    const bool full = out.full();
    if (full) {
        per_view(snap, out, "rdmadiag_pkey_table_size", "Entries in the port's P_Key table.",
                 MetricType::gauge,
                 [](P, V v) -> std::optional<double> { return v.table.keys.size(); });
    }
    per_view(snap, out, "rdmadiag_pkey_table_used", "Non-empty entries in the P_Key table.",
             MetricType::gauge, [](P, V v) -> std::optional<double> { return v.table.used(); });
    per_view(snap, out, "rdmadiag_pkey_table_unreadable",
             "P_Key entries that could not be read (standard detail: only where some could not).",
             MetricType::gauge, [full](P, V v) -> std::optional<double> {
                 if (!full && v.table.unreadable.empty()) return std::nullopt;
                 return v.table.unreadable.size();
             });
    if (full) {
        per_view(snap, out, "rdmadiag_pkey_table_generation",
                 "Generation of the view's table; rises on every real change.", MetricType::gauge,
                 [](P, V v) -> std::optional<double> { return v.generation; });
    }
    per_view(
        snap, out, "rdmadiag_pkey_table_changes_total",
        "Changes of the view's table since the collector first read it.", MetricType::counter,
        [](P, V v) -> std::optional<double> { return v.generation > 0 ? v.generation - 1 : 0; });
    per_view(
        snap, out, "rdmadiag_pkey_table_changed_timestamp_seconds",
        "When the view's current table was first seen, seconds since the epoch.", MetricType::gauge,
        [](P, V v) -> std::optional<double> { return to_seconds(v.changed.time_since_epoch()); });
    per_view(snap, out, "rdmadiag_pkey_view_divergent",
             "Whether this view's table differs from the device view's.", MetricType::gauge,
             [](P p, V v) -> std::optional<double> {
                 const PKeyViewState* device = p.pkeys.find(PKeyView::device);
                 if (!device || v.view == PKeyView::device || v.view == PKeyView::cache)
                     return std::nullopt;
                 return v.table == device->table ? 0 : 1;
             });

    out.begin("rdmadiag_pkey_cache_stale",
              "Whether the event-driven P_Key cache has differed from the device table for longer "
              "than the grace period.",
              MetricType::gauge);
    for_each_port(snap, [&](P p) {
        if (cache_judged(p))
            out.sample(PortLabels(p.ref).span(), p.pkeys.cache == CacheJudgement::stale ? 1 : 0);
    });
    out.begin("rdmadiag_pkey_cache_stale_seconds",
              "How long the P_Key cache has differed from the device table (0 when coherent).",
              MetricType::gauge);
    for_each_port(snap, [&](P p) {
        if (!cache_judged(p)) return;
        const auto since = p.pkeys.stale_since;
        const Duration age = since && snap.time > *since ? snap.time - *since : Duration::zero();
        out.sample(PortLabels(p.ref).span(), to_seconds(age));
    });
}

}  // namespace rdmadiag::prom
