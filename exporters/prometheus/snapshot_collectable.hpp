#pragma once
// A prometheus-cpp Collectable over the latest published snapshot: each Collect() builds the
// families from whatever the collector published last, so a scrape never waits for a device.

#include <prometheus/collectable.h>

#include <string>

#include "collector/publish/snapshot_store.hpp"

namespace rdmadiag::prom {

class SnapshotCollectable final : public prometheus::Collectable {
public:
    explicit SnapshotCollectable(const publish::SnapshotStore& store) : store_(store) {}
    std::vector<prometheus::MetricFamily> Collect() const override;

private:
    const publish::SnapshotStore& store_;
};

// The text exposition format (0.0.4) of a collectable, as /metrics serves it.
std::string serialize_metrics(const prometheus::Collectable& collectable);

}  // namespace rdmadiag::prom
