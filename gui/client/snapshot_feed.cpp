#include "gui/client/snapshot_feed.hpp"

namespace rdmadiag::gui::client {

SnapshotFeed::~SnapshotFeed() = default;

void SnapshotFeed::watch_port(const std::optional<PortRef>&) {}

void SnapshotFeed::watch_partitions(bool, std::optional<uint16_t>) {}

void SnapshotFeed::watch_consumers(bool) {}

void SnapshotFeed::set_status(FeedHealth health, const QString& text) {
    if (health == health_ && text == status_) return;
    health_ = health;
    status_ = text;
    Q_EMIT statusChanged(health, text);
}

}  // namespace rdmadiag::gui::client
