#pragma once
// A small HTTP server on loopback that answers the daemon's JSON API the way a test says: a body
// per route (anything else is 404), or garbage, an HTTP error, or a hang-up for every request.
// It remembers every request target, query included.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QTcpServer>
#include <QTcpSocket>
#include <chrono>
#include <functional>

#include <gtest/gtest.h>
#include <QSignalSpy>

#include "collector/json/checked_json.hpp"
#include "gui/client/api_feed.hpp"

namespace rdmadiag::gui::testing {

// A feed's timing against a fake daemon on loopback: polls and first retries every 20 ms, so the
// tests take milliseconds, with a timeout long enough for a loaded machine.
inline client::ApiFeedOptions fast_feed_options() {
    client::ApiFeedOptions o;
    o.interval = std::chrono::milliseconds(20);
    o.first_retry = std::chrono::milliseconds(20);
    o.timeout = std::chrono::milliseconds(2000);
    return o;
}

class FakeDaemon : public QObject {
public:
    enum class Answer { routes, garbage, http_error, hang_up };

    FakeDaemon() {
        connect(&server_, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = server_.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] { on_request(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen(quint16 port = 0) { return server_.listen(QHostAddress::LocalHost, port); }
    void close() { server_.close(); }
    quint16 port() const { return port_ ? port_ : server_.serverPort(); }
    void remember_port() { port_ = server_.serverPort(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port()); }

    Answer answer = Answer::routes;
    QMap<QByteArray, QByteArray> routes;  // path (no query) -> body
    // path -> the body for a request's target (query included), for answers that depend on it
    QMap<QByteArray, std::function<QByteArray(const QByteArray& target)>> handlers;
    // path -> the HTTP status for a request's target, where it is not 200
    QMap<QByteArray, std::function<int(const QByteArray& target)>> statuses;
    QList<QByteArray> targets;  // every request's target, in order
    int requests = 0;

private:
    void on_request(QTcpSocket* s) {
        buffer_ += s->readAll();
        if (!buffer_.contains("\r\n\r\n")) return;
        ++requests;
        const QByteArray target = buffer_.split(' ').value(1);
        buffer_.clear();
        targets << target;
        if (answer == Answer::hang_up) {
            s->abort();
            return;
        }
        const QByteArray path = target.split('?').value(0);
        QByteArray status = "200 OK";
        QByteArray payload =
            handlers.contains(path) ? handlers.value(path)(target) : routes.value(path);
        if (const int code = statuses.contains(path) ? statuses.value(path)(target) : 200;
            code != 200) {
            status = QByteArray::number(code) + (code == 404 ? " Not Found" : " Error");
        }
        if (!routes.contains(path) && !handlers.contains(path)) {
            status = "404 Not Found";
            payload = "{\"error\":\"no such route\"}";
        } else if (answer == Answer::garbage) {
            payload = "<html>this is not JSON</html>";
        } else if (answer == Answer::http_error) {
            status = "503 Service Unavailable";
            payload = "{\"error\":\"collector not ready\"}";
        }
        s->write("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " +
                 QByteArray::number(payload.size()) + "\r\nConnection: close\r\n\r\n" + payload);
        s->disconnectFromHost();
    }

    QTcpServer server_;
    QByteArray buffer_;
    quint16 port_ = 0;
};

// A change-feed answer with nothing in it at `sequence` (`full`: the answer to since=0), for tests
// whose subject is what the feed reads beside the changes.
inline QByteArray empty_changes(uint64_t sequence, bool full) {
    codec::Json j{{"instance", "run-1"},
                  {"sequence", sequence},
                  {"time", "2026-12-02T10:01:00.000Z"},
                  {"full", full},
                  {"devices", codec::Json::array()}};
    if (full) j["device_names"] = codec::Json::array();
    return QByteArray::fromStdString(j.dump());
}

// Waits for `n` more change polls to be answered and applied.
inline void wait_for_polls(client::ApiFeed& feed, int n) {
    QSignalSpy spy(&feed, &client::SnapshotFeed::deltaReady);
    while (spy.count() < n) ASSERT_TRUE(spy.wait(5000)) << feed.status_text().toStdString();
}

}  // namespace rdmadiag::gui::testing
