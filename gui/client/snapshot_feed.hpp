#pragma once
// Something that delivers snapshots to the dashboard and says how it is doing, in words for
// the status bar: a live daemon, or a playback.

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/partition_listing.hpp"
#include "gui/models/snapshot_delta.hpp"

namespace rdmadiag::gui::client {

enum class FeedHealth { connecting, ok, failing };

class SnapshotFeed : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SnapshotFeed() override;

    virtual void start() = 0;
    // What it reads from: "daemon at http://...", "scenario 'default' (simulated fabric)".
    virtual QString description() const = 0;
    // The port whose counters the user looks at. A feed whose snapshots carry every port's
    // counters ignores it; a daemon's change feed reads only this port's.
    virtual void watch_port(const std::optional<PortRef>& port);
    // Whether the partitions are looked at (`shown`), and which partition's members (a base
    // P_Key). A feed whose snapshots carry the engine's partition model ignores it; a daemon's
    // change feed does not carry partitions, so they are read on their own while shown.
    virtual void watch_partitions(bool shown, std::optional<uint16_t> pkey);
    // Whether a port's consumers are looked at. A feed whose snapshots carry the engine's
    // consumer inventory ignores it; a daemon's are read on their own (/api/v1/consumers).
    virtual void watch_consumers(bool shown);

    FeedHealth health() const { return health_; }
    QString status_text() const { return status_; }

Q_SIGNALS:
    void snapshotReady(rdmadiag::SnapshotPtr snapshot);
    // What changed since the last snapshot or delta; `restart`: the daemon is another run, so
    // what the receiver holds (history included) must go before this full delta is applied.
    void deltaReady(std::shared_ptr<rdmadiag::gui::models::SnapshotDelta> delta, bool restart);
    void countersReady(const rdmadiag::PortRef& port,
                       const std::vector<rdmadiag::CounterState>& counters,
                       rdmadiag::TimePoint time);
    void statusChanged(rdmadiag::gui::client::FeedHealth health, const QString& text);
    // A /api/v1/partitions answer: every partition, or one partition's members.
    void partitionsReady(std::shared_ptr<const rdmadiag::gui::models::PartitionListing> listing);
    // Why the partitions could not be read, while the daemon itself answers.
    void partitionsFailed(const QString& why);
    // A /api/v1/consumers answer: every device's inventory, or null when the daemon has no
    // consumers source; and why it could not be read.
    void consumersReady(std::shared_ptr<const rdmadiag::HostConsumers> consumers);
    void consumersFailed(const QString& why);

protected:
    void set_status(FeedHealth health, const QString& text);

private:
    FeedHealth health_ = FeedHealth::connecting;
    QString status_;
};

}  // namespace rdmadiag::gui::client
