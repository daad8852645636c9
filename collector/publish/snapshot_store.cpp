#include "collector/publish/snapshot_store.hpp"

namespace rdmadiag::publish {

SnapshotStore::SnapshotStore()
    : latest_(std::make_shared<const Snapshot>()),
      stats_(std::make_shared<const CollectorStats>()) {}

void SnapshotStore::publish(SnapshotPtr snapshot) {
    if (!snapshot) return;
    std::lock_guard lock(mutex_);
    if (snapshot == latest_) return;
    latest_ = std::move(snapshot);
    ++publications_;
}

SnapshotPtr SnapshotStore::latest() const {
    std::lock_guard lock(mutex_);
    return latest_;
}

uint64_t SnapshotStore::publications() const {
    std::lock_guard lock(mutex_);
    return publications_;
}

void SnapshotStore::publish_stats(CollectorStats stats) {
    auto ptr = std::make_shared<const CollectorStats>(std::move(stats));
    std::lock_guard lock(mutex_);
    stats_ = std::move(ptr);
}

std::shared_ptr<const CollectorStats> SnapshotStore::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace rdmadiag::publish
