#include "gui/client/api_feed.hpp"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>
#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "collector/json/consumer_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "collector/model/pkey.hpp"
#include "gui/client/change_feed_json.hpp"
#include "gui/client/partitions_json.hpp"

namespace rdmadiag::gui::client {

namespace {
constexpr auto kSnapshotPath = "/api/v1/snapshot";
constexpr qint64 kMaxBody = 256 * 1024 * 1024;  // a snapshot larger than this is not one
}  // namespace

QUrl ApiFeed::snapshot_url_for(const QUrl& base) {
    QUrl url = base;
    QString path = url.path();
    if (path.endsWith(QLatin1String(kSnapshotPath))) return url;
    while (path.endsWith(QLatin1Char('/'))) path.chop(1);
    url.setPath(path + QLatin1String(kSnapshotPath));
    return url;
}

ApiFeed::ApiFeed(const QUrl& base, ApiFeedOptions options, QObject* parent)
    : SnapshotFeed(parent), base_(base), options_(options), retry_(options.first_retry) {
    QString path = base_.path();
    if (path.endsWith(QLatin1String(kSnapshotPath))) path.chop(qsizetype(strlen(kSnapshotPath)));
    while (path.endsWith(QLatin1Char('/'))) path.chop(1);
    base_.setPath(path);
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &ApiFeed::poll);
    connect(&net_, &QNetworkAccessManager::finished, this, &ApiFeed::on_finished);
}

QUrl ApiFeed::api_url(const char* path) const {
    QUrl url = base_;
    url.setPath(base_.path() + QLatin1String(path));
    return url;
}

QString ApiFeed::description() const {
    return QStringLiteral("daemon at %1").arg(snapshot_url().toDisplayString(QUrl::RemoveUserInfo));
}

void ApiFeed::start() {
    set_status(FeedHealth::connecting, QStringLiteral("Connecting to %1 ...").arg(description()));
    poll();
}

void ApiFeed::watch_port(const std::optional<PortRef>& port) {
    watched_ = port;
}

void ApiFeed::watch_partitions(bool shown, std::optional<uint16_t> pkey) {
    partitions_shown_ = shown;
    partition_ = pkey ? std::optional<uint16_t>(pkey_base(*pkey)) : std::nullopt;
}

bool ApiFeed::partitions_due() const {
    // Nothing in the change feed says whether the partition model changed; a new snapshot may
    // have changed it, the same snapshot has not.
    return partitions_shown_ && partitions_served_ &&
           (partitions_read_at_ != since_ || partitions_read_for_ != partition_);
}

void ApiFeed::watch_consumers(bool shown) {
    consumers_shown_ = shown;
}

bool ApiFeed::consumers_due() const {
    // The inventory moves with the snapshot: read once a snapshot while looked at.
    return consumers_shown_ && consumers_served_ && consumers_read_at_ != since_;
}

void ApiFeed::after(Request done) {
    switch (done) {
        case Request::changes:
            if (watched_) {
                send(Request::counters);
                return;
            }
            [[fallthrough]];
        case Request::snapshot:
        case Request::counters:
            if (partitions_due()) {
                send(Request::partitions);
                return;
            }
            break;
        case Request::partitions:
            if (partition_ && partitions_served_) {
                send(Request::partition_members);
                return;
            }
            partitions_read_for_ = partition_;
            break;
        case Request::partition_members:
        case Request::consumers:
            break;
    }
    if (done != Request::consumers && consumers_due()) {
        send(Request::consumers);
        return;
    }
    next_after(protocol_ == Protocol::snapshots ? options_.interval * 2 : options_.interval);
}

void ApiFeed::poll() {
    if (in_flight_) return;
    // The first answer is the change feed's full one (since=0): the whole fabric without its
    // counters, a fifth of the snapshot at subnet scope. A daemon without a change feed is
    // followed by whole snapshots.
    send(protocol_ == Protocol::snapshots ? Request::snapshot : Request::changes);
}

void ApiFeed::send(Request what) {
    QUrl url;
    switch (what) {
        case Request::snapshot:
            url = snapshot_url();
            break;
        case Request::changes: {
            url = api_url("/api/v1/changes");
            QUrlQuery q;
            q.addQueryItem(QStringLiteral("since"), QString::number(since_));
            url.setQuery(q);
            break;
        }
        case Request::counters: {
            url = api_url("/api/v1/counters");
            QUrlQuery q;
            q.addQueryItem(QStringLiteral("device"), QString::fromStdString(watched_->device));
            q.addQueryItem(QStringLiteral("port"), QString::number(watched_->port));
            url.setQuery(q);
            break;
        }
        case Request::partitions:
            url = api_url("/api/v1/partitions");
            partitions_read_at_ = since_;
            break;
        case Request::partition_members: {
            url = api_url("/api/v1/partitions");
            QUrlQuery q;
            q.addQueryItem(QStringLiteral("pkey"),
                           QString::fromStdString(format_pkey(*partition_)));
            url.setQuery(q);
            partitions_read_for_ = partition_;
            break;
        }
        case Request::consumers:
            url = api_url("/api/v1/consumers");
            consumers_read_at_ = since_;
            break;
    }
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    const auto timeout = what == Request::snapshot
                             ? std::max(options_.timeout, options_.snapshot_timeout)
                             : options_.timeout;
    request.setTransferTimeout(static_cast<int>(timeout.count()));
    // Qt takes a gzip answer that inflates more than 40-fold past 10 MiB for a decompression
    // bomb; a quiet subnet's snapshot inflates 70-fold. Our own limit is kMaxBody.
    request.setDecompressedSafetyCheckThreshold(kMaxBody);
    in_flight_kind_ = what;
    in_flight_ = net_.get(request);
}

void ApiFeed::on_finished(QNetworkReply* reply) {
    reply->deleteLater();
    if (reply != in_flight_) return;
    in_flight_ = nullptr;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool partitions =
        in_flight_kind_ == Request::partitions || in_flight_kind_ == Request::partition_members;
    if (partitions && reply->error() != QNetworkReply::NoError && status != 0) {
        // The daemon answers; it only has no partitions to give.
        on_partitions_refused(status, reply->readAll(), reply->errorString());
        return;
    }
    if (in_flight_kind_ == Request::consumers && reply->error() != QNetworkReply::NoError &&
        status != 0) {
        on_consumers_refused(status, reply->errorString());
        return;
    }
    if (in_flight_kind_ == Request::changes && status == 404) {
        // An older daemon: follow it by whole snapshots from now on.
        protocol_ = Protocol::snapshots;
        next_after(options_.interval * 2);
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        if (status != 0) {
            fail(QStringLiteral("the daemon answered HTTP %1 (%2)")
                     .arg(status)
                     .arg(reply->errorString()));
        } else {
            fail(reply->errorString());
        }
        return;
    }
    if (reply->bytesAvailable() > kMaxBody) {
        fail(QStringLiteral("the answer is larger than %1 MiB").arg(kMaxBody >> 20));
        return;
    }
    const QByteArray body = reply->readAll();
    switch (in_flight_kind_) {
        case Request::snapshot:
            on_snapshot(body);
            break;
        case Request::changes:
            on_changes(body);
            break;
        case Request::counters:
            on_counters(body);
            break;
        case Request::partitions:
        case Request::partition_members:
            on_partitions(body);
            break;
        case Request::consumers:
            on_consumers(body);
            break;
    }
}

void ApiFeed::on_snapshot(const QByteArray& body) {
    auto parsed = codec::parse_snapshot_json(
        std::string_view(body.constData(), static_cast<size_t>(body.size())));
    if (!parsed) {
        fail(QStringLiteral("the answer is not an rdmadiag snapshot: %1")
                 .arg(QString::fromStdString(parsed.error().message)));
        return;
    }
    have_snapshot_ = true;
    since_ = parsed->sequence;
    connected();
    Q_EMIT snapshotReady(std::make_shared<const Snapshot>(std::move(*parsed)));
#ifdef __GLIBC__
    // Reading a subnet's snapshot builds a JSON tree ten times its size; glibc keeps the freed
    // pages unless asked, and the window would hold hundreds of MB it no longer uses.
    malloc_trim(0);
#endif
    after(Request::snapshot);
}

void ApiFeed::on_changes(const QByteArray& body) {
    auto parsed =
        parse_snapshot_delta(std::string_view(body.constData(), static_cast<size_t>(body.size())));
    if (!parsed) {
        fail(QStringLiteral("the change feed's answer cannot be read: %1")
                 .arg(QString::fromStdString(parsed.error().message)));
        return;
    }
    protocol_ = Protocol::changes;
    if (!instance_.empty() && parsed->instance != instance_) {
        // The daemon restarted: what we hold belongs to another run. Start again from nothing.
        instance_ = parsed->instance;
        restart_ = true;
    }
    if (restart_ && !parsed->full) {
        since_ = 0;  // a full answer, not a delta of the new run, is what replaces ours
        send(Request::changes);
        return;
    }
    instance_ = parsed->instance;
    since_ = parsed->sequence;
    connected();
    const bool first = !have_snapshot_;
    have_snapshot_ = true;
    const bool restart = std::exchange(restart_, false) || first;
    const bool full = parsed->full;
    Q_EMIT deltaReady(std::make_shared<models::SnapshotDelta>(std::move(*parsed)), restart);
#ifdef __GLIBC__
    if (full) malloc_trim(0);  // the full answer's JSON tree is freed: give it back
#endif
    after(Request::changes);
}

void ApiFeed::on_counters(const QByteArray& body) {
    if (watched_) {
        // A port that went away between two polls is not the daemon failing: nothing to show.
        auto parsed = parse_port_counters(
            std::string_view(body.constData(), static_cast<size_t>(body.size())), *watched_);
        if (parsed) Q_EMIT countersReady(parsed->port, parsed->counters, parsed->time);
    }
    after(Request::counters);
}

void ApiFeed::on_partitions(const QByteArray& body) {
    const Request done = in_flight_kind_;
    const auto members_of =
        done == Request::partition_members ? partitions_read_for_ : std::optional<uint16_t>();
    auto parsed = parse_partitions_answer(
        std::string_view(body.constData(), static_cast<size_t>(body.size())), members_of);
    if (!parsed) {
        Q_EMIT partitionsFailed(QStringLiteral("the partitions answer cannot be read: %1")
                                    .arg(QString::fromStdString(parsed.error().message)));
        // The members of a list that could not be read are not asked for this round.
        if (done == Request::partitions) partitions_read_for_ = partition_;
        after(Request::partition_members);  // the round ends here
        return;
    }
    Q_EMIT partitionsReady(
        std::make_shared<const models::PartitionListing>(std::move(parsed->listing)));
    if (parsed->skipped_members > 0) {
        Q_EMIT partitionsFailed(QStringLiteral("%1 member ports could not be read (%2)")
                                    .arg(parsed->skipped_members)
                                    .arg(QString::fromStdString(parsed->first_skip_reason)));
    }
    after(done);
}

void ApiFeed::on_partitions_refused(int status, const QByteArray& body, const QString& error) {
    const Request done = in_flight_kind_;
    // The daemon's errors are {"error": "...", "status": N}.
    QString why = error;
    const auto j = codec::Json::parse(body.constData(), body.constData() + body.size(), nullptr,
                                      /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("error") && j["error"].is_string())
        why = QString::fromStdString(j["error"].get<std::string>());
    if (status == 404 && done == Request::partitions) {
        partitions_served_ = false;  // not asked again
        Q_EMIT partitionsFailed(
            QStringLiteral("the daemon does not serve /api/v1/partitions (%1): it is older than "
                           "this dashboard")
                .arg(why));
    } else {
        Q_EMIT partitionsFailed(QStringLiteral("the daemon answered HTTP %1 to %2: %3")
                                    .arg(status)
                                    .arg(done == Request::partitions
                                             ? QStringLiteral("the partition list")
                                             : QStringLiteral("the partition's members"),
                                         why));
    }
    if (done == Request::partitions) partitions_read_for_ = partition_;
    after(Request::partition_members);  // the round ends here
}

void ApiFeed::on_consumers(const QByteArray& body) {
    auto parsed = codec::parse_consumers_answer(
        std::string_view(body.constData(), static_cast<size_t>(body.size())));
    if (!parsed) {
        Q_EMIT consumersFailed(QStringLiteral("the consumers answer cannot be read: %1")
                                   .arg(QString::fromStdString(parsed.error().message)));
    } else {
        Q_EMIT consumersReady(*parsed ? std::make_shared<const HostConsumers>(std::move(**parsed))
                                      : nullptr);
    }
    after(Request::consumers);
}

void ApiFeed::on_consumers_refused(int status, const QString& why) {
    if (status == 404) {
        consumers_served_ = false;  // not asked again
        Q_EMIT consumersFailed(
            QStringLiteral("the daemon does not serve /api/v1/consumers (%1): it is older than "
                           "this dashboard")
                .arg(why));
    } else {
        Q_EMIT consumersFailed(QStringLiteral("the daemon answered HTTP %1 to the consumers: %2")
                                   .arg(status)
                                   .arg(why));
    }
    after(Request::consumers);
}

void ApiFeed::next_after(std::chrono::milliseconds wait) {
    timer_.start(wait);
}

void ApiFeed::connected() {
    failures_ = 0;
    retry_ = options_.first_retry;
    const QString how = protocol_ == Protocol::changes     ? QStringLiteral(" (change feed)")
                        : protocol_ == Protocol::snapshots ? QStringLiteral(" (whole snapshots)")
                                                           : QString();
    set_status(
        FeedHealth::ok,
        QStringLiteral("Connected to %1, snapshot #%2%3").arg(description()).arg(since_).arg(how));
}

void ApiFeed::fail(const QString& why) {
    ++failures_;
    const auto wait = retry_;
    set_status(FeedHealth::failing,
               QStringLiteral("No data from %1: %2. Retrying in %3 s (attempt %4).")
                   .arg(description(), why)
                   .arg(static_cast<double>(wait.count()) / 1000.0, 0, 'g', 3)
                   .arg(failures_ + 1));
    retry_ = std::min(retry_ * 2, options_.max_retry);
    next_after(wait);
}

}  // namespace rdmadiag::gui::client
