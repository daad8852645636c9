// GID views per port, and the coherence of the kernel's GID cache with the port (InfiniBand) or
// the netdev's addresses (RoCE). A port whose cache cannot be judged (one side not read) has no
// coherence series rather than a reassuring 0; the per-view series are full detail only, since a
// subnet sweep gives every port of the fabric an sma view.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

bool judged(const PortSnapshot& p) {
    return p.gids->coherence != GidCoherence::unknown;
}

}  // namespace

void add_gid_metrics(const Snapshot& snap, MetricWriter& out) {
    out.begin("rdmadiag_gid_cache_stale",
              "Whether the kernel's GID cache has differed from what the port holds (RoCE: from "
              "the netdev's addresses) for longer than the grace period.",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (judged(p)) {
            out.sample(PortLabels(p.ref).span(), p.gids->coherence == GidCoherence::stale ? 1 : 0);
        }
    });
    out.begin("rdmadiag_gid_cache_differs_seconds",
              "How long the kernel's GID cache has differed from the port (0 when it agrees).",
              MetricType::gauge);
    for_each_port(snap, [&](const PortSnapshot& p) {
        if (!judged(p)) return;
        const auto since = p.gids->differs_since;
        const Duration age = since && snap.time > *since ? snap.time - *since : Duration::zero();
        out.sample(PortLabels(p.ref).span(), to_seconds(age));
    });
    if (!out.full()) return;
    auto per_view = [&](std::string_view name, std::string_view help, MetricType type,
                        auto&& value) {
        out.begin(name, help, type);
        for_each_port(snap, [&](const PortSnapshot& p) {
            for (const auto& v : p.gids->views) {
                PortLabels l(p.ref);
                l.with("view", to_string(v.view));
                out.sample(l.span(), value(v));
            }
        });
    };
    per_view("rdmadiag_gid_view_entries", "Non-zero GIDs in the view.", MetricType::gauge,
             [](const GidViewState& v) { return static_cast<double>(v.table.entries.size()); });
    per_view("rdmadiag_gid_view_changes_total",
             "Changes of the view since the collector first read it.", MetricType::counter,
             [](const GidViewState& v) {
                 return static_cast<double>(v.generation > 0 ? v.generation - 1 : 0);
             });
}

}  // namespace rdmadiag::prom
