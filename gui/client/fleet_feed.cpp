#include "gui/client/fleet_feed.hpp"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>
#include <array>

namespace rdmadiag::gui::client {

namespace {
constexpr std::array<const char*, 3> kQueries = {"rdmadiag_findings", "rdmadiag_source_up", "up"};
}  // namespace

FleetFeed::FleetFeed(const QUrl& prometheus, std::chrono::milliseconds interval, QObject* parent)
    : QObject(parent), base_(prometheus), interval_(interval) {
    QString path = base_.path();
    while (path.endsWith(QLatin1Char('/'))) path.chop(1);
    base_.setPath(path);
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, [this] { ask(0); });
    connect(&net_, &QNetworkAccessManager::finished, this, &FleetFeed::on_finished);
}

void FleetFeed::start() {
    ask(0);
}

void FleetFeed::ask(int query) {
    if (in_flight_) return;
    if (query == 0) answers_.clear();
    query_ = query;
    QUrl url = base_;
    url.setPath(base_.path() + QStringLiteral("/api/v1/query"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"),
                   QString::fromLatin1(kQueries[static_cast<size_t>(query)]));
    url.setQuery(q);
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setTransferTimeout(10000);
    in_flight_ = net_.get(request);
}

void FleetFeed::on_finished(QNetworkReply* reply) {
    reply->deleteLater();
    if (reply != in_flight_) return;
    in_flight_ = nullptr;
    const QByteArray body = reply->readAll();
    // Prometheus answers a bad query with 400 and a JSON body saying why: read it either way.
    auto samples =
        parse_prom_vector(std::string_view(body.constData(), static_cast<size_t>(body.size())));
    if (!samples) {
        fail(reply->error() != QNetworkReply::NoError
                 ? reply->errorString()
                 : QString::fromStdString(samples.error().message));
        return;
    }
    answers_.push_back(std::move(*samples));
    if (query_ + 1 < static_cast<int>(kQueries.size())) {
        ask(query_ + 1);
        return;
    }
    const models::FleetState state = make_fleet_state(answers_[0], answers_[1], answers_[2]);
    ok_ = true;
    status_ = QStringLiteral("%1 rdmadiag host(s) from %2")
                  .arg(state.hosts.size())
                  .arg(base_.toDisplayString(QUrl::RemoveUserInfo));
    Q_EMIT statusChanged(true, status_);
    Q_EMIT stateReady(state);
    timer_.start(interval_);
}

void FleetFeed::fail(const QString& why) {
    ok_ = false;
    status_ = QStringLiteral("No answer from %1: %2. Retrying in %3 s.")
                  .arg(base_.toDisplayString(QUrl::RemoveUserInfo), why)
                  .arg(std::chrono::duration_cast<std::chrono::seconds>(interval_).count());
    Q_EMIT statusChanged(false, status_);
    timer_.start(interval_);
}

}  // namespace rdmadiag::gui::client
