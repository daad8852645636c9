#include "gui/client/api_feed.hpp"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <algorithm>

#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::gui::client {

namespace {
constexpr auto kSnapshotPath = "/api/v1/snapshot";
constexpr qint64 kMaxBody = 64 * 1024 * 1024;  // a snapshot larger than this is not one
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
    : SnapshotFeed(parent),
      url_(snapshot_url_for(base)),
      options_(options),
      retry_(options.first_retry) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &ApiFeed::poll);
    connect(&net_, &QNetworkAccessManager::finished, this, &ApiFeed::on_finished);
}

QString ApiFeed::description() const {
    return QStringLiteral("daemon at %1").arg(url_.toDisplayString(QUrl::RemoveUserInfo));
}

void ApiFeed::start() {
    set_status(FeedHealth::connecting, QStringLiteral("Connecting to %1 ...").arg(description()));
    poll();
}

void ApiFeed::poll() {
    if (in_flight_) return;
    QNetworkRequest request(url_);
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(static_cast<int>(options_.timeout.count()));
    in_flight_ = net_.get(request);
}

void ApiFeed::on_finished(QNetworkReply* reply) {
    reply->deleteLater();
    if (reply != in_flight_) return;
    in_flight_ = nullptr;
    if (reply->error() != QNetworkReply::NoError) {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
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
    auto parsed = codec::parse_snapshot_json(
        std::string_view(body.constData(), static_cast<size_t>(body.size())));
    if (!parsed) {
        fail(QStringLiteral("the answer is not an rdmadiag snapshot: %1")
                 .arg(QString::fromStdString(parsed.error().message)));
        return;
    }
    failures_ = 0;
    retry_ = options_.first_retry;
    last_sequence_ = parsed->sequence;
    set_status(
        FeedHealth::ok,
        QStringLiteral("Connected to %1, snapshot #%2").arg(description()).arg(parsed->sequence));
    Q_EMIT snapshotReady(std::make_shared<const Snapshot>(std::move(*parsed)));
    timer_.start(options_.interval);
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
    timer_.start(wait);
}

}  // namespace rdmadiag::gui::client
