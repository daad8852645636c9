#pragma once
// Where the collector publishes each new snapshot and sinks pick up the latest one. Publishing
// and reading only swap a shared_ptr under a mutex, so a scrape never waits for a device or for
// the engine: it serves whatever was published last.

#include <mutex>

#include "collector/model/snapshot.hpp"
#include "collector/publish/collector_stats.hpp"

namespace rdmadiag::publish {

class SnapshotStore {
public:
    SnapshotStore();

    void publish(SnapshotPtr snapshot);
    // Never null: an empty snapshot (sequence 0) until the first publish.
    SnapshotPtr latest() const;
    uint64_t publications() const;

    void publish_stats(CollectorStats stats);
    std::shared_ptr<const CollectorStats> stats() const;

private:
    mutable std::mutex mutex_;
    SnapshotPtr latest_;
    std::shared_ptr<const CollectorStats> stats_;
    uint64_t publications_ = 0;
};

}  // namespace rdmadiag::publish
