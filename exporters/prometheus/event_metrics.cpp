// Async events by type, as totals.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_event_metrics(const Snapshot& snap, MetricWriter& out) {
    for (const auto& t : snap.event_totals) {
        out.counter("rdmadiag_async_events_total",
                    "Verbs async events delivered, by device, port (empty for non-port events) and "
                    "type.",
                    {{"device", t.device},
                     {"port", t.port ? std::to_string(*t.port) : ""},
                     {"type", std::string(to_string(t.type))}},
                    static_cast<double>(t.count));
    }
}

}  // namespace rdmadiag::prom
