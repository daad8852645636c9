// P_Key tables per view, and the coherence of the event-driven cache with the device.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_pkey_metrics(const Snapshot& snap, MetricWriter& out) {
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            const PKeyViewState* device = p.pkeys.find(PKeyView::device);
            for (const auto& v : p.pkeys.views) {
                auto l = port_labels(p.ref);
                l.push_back({"view", std::string(to_string(v.view))});
                out.gauge("rdmadiag_pkey_table_size", "Entries in the port's P_Key table.", l,
                          static_cast<double>(v.table.keys.size()));
                out.gauge("rdmadiag_pkey_table_used", "Non-empty entries in the P_Key table.", l,
                          static_cast<double>(v.table.used()));
                out.gauge("rdmadiag_pkey_table_unreadable", "P_Key entries that could not be read.",
                          l, static_cast<double>(v.table.unreadable.size()));
                out.gauge("rdmadiag_pkey_table_generation",
                          "Generation of the view's table; rises on every real change.", l,
                          static_cast<double>(v.generation));
                out.counter("rdmadiag_pkey_table_changes_total",
                            "Changes of the view's table since the collector first read it.", l,
                            static_cast<double>(v.generation > 0 ? v.generation - 1 : 0));
                out.gauge("rdmadiag_pkey_table_changed_timestamp_seconds",
                          "When the view's current table was first seen, seconds since the epoch.",
                          l, to_seconds(v.changed.time_since_epoch()));
                if (device && v.view != PKeyView::device && v.view != PKeyView::cache) {
                    out.gauge("rdmadiag_pkey_view_divergent",
                              "Whether this view's table differs from the device view's.", l,
                              v.table == device->table ? 0 : 1);
                }
            }
            // Only ports whose async events some source watches can be judged: elsewhere the
            // series is absent rather than a reassuring 0.
            const auto judgement = p.pkeys.cache;
            if (judgement != CacheJudgement::not_watched && judgement != CacheJudgement::unknown) {
                auto l = port_labels(p.ref);
                const bool stale = judgement == CacheJudgement::stale;
                Duration age = p.pkeys.stale_since && snap.time > *p.pkeys.stale_since
                                   ? snap.time - *p.pkeys.stale_since
                                   : Duration::zero();
                out.gauge("rdmadiag_pkey_cache_stale",
                          "Whether the event-driven P_Key cache has differed from the device table "
                          "for longer than the grace period.",
                          l, stale ? 1 : 0);
                out.gauge("rdmadiag_pkey_cache_stale_seconds",
                          "How long the P_Key cache has differed from the device table (0 when "
                          "coherent).",
                          l, to_seconds(age));
            }
        }
    }
}

}  // namespace rdmadiag::prom
