// The daemon's own memory, the figures an operator weighs against the fabric it serves: resident
// size, and the heap in use beside the heap held free (what fragmentation costs). The collector
// reads them (collector stats), so a scrape is a function of what was published.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_process_metrics(const publish::CollectorStats& stats, MetricWriter& out) {
    if (!stats.memory) return;
    const auto& m = *stats.memory;
    if (m.resident_bytes > 0) {
        out.single("process_resident_memory_bytes", "Resident memory size in bytes.",
                   MetricType::gauge, {}, static_cast<double>(m.resident_bytes));
    }
    out.single("rdmadiag_heap_in_use_bytes",
               "Heap handed out by malloc (arenas and blocks mapped on their own).",
               MetricType::gauge, {}, static_cast<double>(m.heap_in_use_bytes));
    out.single("rdmadiag_heap_free_bytes", "Heap malloc holds free without giving it back.",
               MetricType::gauge, {}, static_cast<double>(m.heap_free_bytes));
}

}  // namespace rdmadiag::prom
