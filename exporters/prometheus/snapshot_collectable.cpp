#include "exporters/prometheus/snapshot_collectable.hpp"

#include <prometheus/text_serializer.h>

#include <sstream>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

std::vector<prometheus::MetricFamily> SnapshotCollectable::Collect() const {
    auto snap = store_.latest();
    auto stats = store_.stats();
    return snapshot_metrics(*snap, stats.get());
}

std::string serialize_metrics(const prometheus::Collectable& collectable) {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, collectable.Collect());
    return out.str();
}

}  // namespace rdmadiag::prom
