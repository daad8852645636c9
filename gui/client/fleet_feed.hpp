#pragma once
// Polls a Prometheus (or VictoriaMetrics) query API for the fleet view: every interval three
// instant queries, one at a time and never blocking, rdmadiag_findings, rdmadiag_source_up and
// up, put together into a FleetState. Failures are said in words and retried on the next tick.

#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <QUrl>
#include <chrono>
#include <vector>

#include "gui/client/prometheus_json.hpp"
#include "gui/models/fleet_state.hpp"

class QNetworkReply;

namespace rdmadiag::gui::client {

class FleetFeed final : public QObject {
    Q_OBJECT
public:
    // `prometheus`: the server's address, e.g. http://host:9090 (a path prefix is kept).
    explicit FleetFeed(const QUrl& prometheus,
                       std::chrono::milliseconds interval = std::chrono::seconds(5),
                       QObject* parent = nullptr);

    void start();
    QUrl prometheus() const { return base_; }
    QString status_text() const { return status_; }
    bool ok() const { return ok_; }

Q_SIGNALS:
    void stateReady(const rdmadiag::gui::models::FleetState& state);
    void statusChanged(bool ok, const QString& text);

private:
    void ask(int query);
    void on_finished(QNetworkReply* reply);
    void fail(const QString& why);

    QUrl base_;
    std::chrono::milliseconds interval_;
    QNetworkAccessManager net_;
    QTimer timer_;
    QNetworkReply* in_flight_ = nullptr;
    int query_ = 0;  // which of the three is in flight
    std::vector<std::vector<PromSample>> answers_;
    QString status_;
    bool ok_ = false;
};

}  // namespace rdmadiag::gui::client
