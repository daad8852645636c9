// Async events by type, as totals.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_event_metrics(const Snapshot& snap, MetricWriter& out) {
    out.begin("rdmadiag_async_events_total",
              "Verbs async events delivered, by device, port (empty for non-port events) and type.",
              MetricType::counter);
    for (const auto& t : snap.event_totals) {
        const std::string port = t.port ? std::to_string(*t.port) : "";
        out.sample({{"device", t.device}, {"port", port}, {"type", to_string(t.type)}},
                   static_cast<double>(t.count));
    }
}

}  // namespace rdmadiag::prom
