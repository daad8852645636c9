#pragma once
// Polls a running daemon's GET /api/v1/snapshot every interval with QNetworkAccessManager (one
// request in flight, never blocking). A daemon that does not answer, answers an HTTP error or
// answers something that is not a snapshot is reported in words and retried with exponential
// backoff (1 s doubling to 30 s); the first good answer resets it.

#include <QNetworkAccessManager>
#include <QTimer>
#include <QUrl>
#include <chrono>

#include "gui/client/snapshot_feed.hpp"

class QNetworkReply;

namespace rdmadiag::gui::client {

struct ApiFeedOptions {
    std::chrono::milliseconds interval{2000};
    std::chrono::milliseconds first_retry{1000};
    std::chrono::milliseconds max_retry{30000};
    std::chrono::milliseconds timeout{5000};  // a request that takes longer counts as failed
};

class ApiFeed final : public SnapshotFeed {
    Q_OBJECT
public:
    // `base` is the daemon's address ("http://host:9857"); a URL that already names
    // /api/v1/snapshot is used as it is.
    ApiFeed(const QUrl& base, ApiFeedOptions options = {}, QObject* parent = nullptr);

    void start() override;
    QString description() const override;

    QUrl snapshot_url() const { return url_; }
    std::chrono::milliseconds next_retry() const { return retry_; }
    int failures() const { return failures_; }

    static QUrl snapshot_url_for(const QUrl& base);

private:
    void poll();
    void on_finished(QNetworkReply* reply);
    void fail(const QString& why);

    QUrl url_;
    ApiFeedOptions options_;
    QNetworkAccessManager net_;
    QTimer timer_;
    QNetworkReply* in_flight_ = nullptr;
    std::chrono::milliseconds retry_;
    int failures_ = 0;
    uint64_t last_sequence_ = 0;
};

}  // namespace rdmadiag::gui::client
