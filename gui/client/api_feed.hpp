#pragma once
// Follows a running daemon over its JSON API with QNetworkAccessManager (one request in flight,
// never blocking). It reads GET /api/v1/snapshot once, then asks GET /api/v1/changes?since=N every
// interval and hands on only what changed (deltaReady), so a quiet 12,000-port fabric costs a
// few hundred bytes a second. The counters of the port being looked at (watch_port) are read on
// their own, GET /api/v1/counters?device=D&port=N, after each change poll. So are the partitions
// while they are looked at (watch_partitions): GET /api/v1/partitions, the list with member counts,
// then ?pkey=P, the chosen partition's members. The API gives no revision of the partition model,
// so they are read after every change poll that brought a new snapshot, and not at all while the
// Partitions tab is hidden. A daemon without the change feed (404) is polled for whole snapshots
// instead, as older versions of this client did.
// A daemon that does not answer, answers an HTTP error or answers something it cannot read is
// reported in words and retried with exponential backoff (1 s doubling to 30 s); the first good
// answer resets it. The partitions are the exception: an HTTP error or an answer that cannot be
// read there is said on its own (partitionsFailed), since the daemon still answers.

#include <QNetworkAccessManager>
#include <QTimer>
#include <QUrl>
#include <chrono>
#include <optional>

#include "gui/client/snapshot_feed.hpp"

class QNetworkReply;

namespace rdmadiag::gui::client {

struct ApiFeedOptions {
    std::chrono::milliseconds interval{1000};  // between change polls (snapshot polls: 2x)
    std::chrono::milliseconds first_retry{1000};
    std::chrono::milliseconds max_retry{30000};
    std::chrono::milliseconds timeout{5000};  // a request that takes longer counts as failed
    // A whole snapshot of a 12,000-port subnet is tens of MB that the daemon takes seconds to
    // write: it gets longer.
    std::chrono::milliseconds snapshot_timeout{120000};
};

class ApiFeed final : public SnapshotFeed {
    Q_OBJECT
public:
    enum class Protocol { unknown, changes, snapshots };

    // `base` is the daemon's address ("http://host:9857"); a URL that names /api/v1/snapshot
    // is taken as the daemon's address too.
    ApiFeed(const QUrl& base, ApiFeedOptions options = {}, QObject* parent = nullptr);

    void start() override;
    QString description() const override;
    void watch_port(const std::optional<PortRef>& port) override;
    void watch_partitions(bool shown, std::optional<uint16_t> pkey) override;
    void watch_consumers(bool shown) override;

    QUrl snapshot_url() const { return api_url("/api/v1/snapshot"); }
    std::chrono::milliseconds next_retry() const { return retry_; }
    int failures() const { return failures_; }
    Protocol protocol() const { return protocol_; }
    uint64_t since() const { return since_; }
    // False once the daemon answered that it has no /api/v1/partitions (an older version).
    bool serves_partitions() const { return partitions_served_; }
    // False once the daemon answered that it has no /api/v1/consumers.
    bool serves_consumers() const { return consumers_served_; }

    static QUrl snapshot_url_for(const QUrl& base);

private:
    enum class Request { snapshot, changes, counters, partitions, partition_members, consumers };

    QUrl api_url(const char* path) const;
    void poll();
    void send(Request what);
    void on_finished(QNetworkReply* reply);
    void on_snapshot(const QByteArray& body);
    void on_changes(const QByteArray& body);
    void on_counters(const QByteArray& body);
    void on_partitions(const QByteArray& body);
    void on_partitions_refused(int status, const QByteArray& body, const QString& error);
    bool partitions_due() const;
    void on_consumers(const QByteArray& body);
    void on_consumers_refused(int status, const QString& why);
    bool consumers_due() const;
    void after(Request done);  // the rest of a poll round, then the wait for the next
    void next_after(std::chrono::milliseconds wait);
    void connected();
    void fail(const QString& why);

    QUrl base_;
    ApiFeedOptions options_;
    QNetworkAccessManager net_;
    QTimer timer_;
    QNetworkReply* in_flight_ = nullptr;
    Request in_flight_kind_ = Request::snapshot;
    std::chrono::milliseconds retry_;
    int failures_ = 0;
    Protocol protocol_ = Protocol::unknown;
    bool have_snapshot_ = false;
    std::string instance_;  // the daemon run the deltas came from
    uint64_t since_ = 0;
    bool restart_ = false;  // the next full delta starts from scratch
    std::optional<PortRef> watched_;
    bool partitions_shown_ = false;
    std::optional<uint16_t> partition_;
    bool partitions_served_ = true;
    // What the partitions were last read for: the snapshot sequence and the chosen partition.
    std::optional<uint64_t> partitions_read_at_;
    std::optional<uint16_t> partitions_read_for_;
    bool consumers_shown_ = false;
    bool consumers_served_ = true;
    std::optional<uint64_t> consumers_read_at_;  // the snapshot sequence they were read for
};

}  // namespace rdmadiag::gui::client
