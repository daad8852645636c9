#include "gui/client/api_feed.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

// A one-route HTTP server on loopback that answers every request the way the test says.
class FakeDaemon : public QObject {
public:
    enum class Answer { snapshot, garbage, http_error, hang_up };

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

    Answer answer = Answer::snapshot;
    QByteArray body;
    int requests = 0;

private:
    void on_request(QTcpSocket* s) {
        buffer_ += s->readAll();
        if (!buffer_.contains("\r\n\r\n")) return;
        ++requests;
        const bool right_path = buffer_.startsWith("GET /api/v1/snapshot ");
        buffer_.clear();
        if (answer == Answer::hang_up) {
            s->abort();
            return;
        }
        QByteArray status = "200 OK";
        QByteArray payload = body;
        if (!right_path) {
            status = "404 Not Found";
            payload = "no such route";
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

ApiFeedOptions fast() {
    ApiFeedOptions o;
    o.interval = std::chrono::milliseconds(20);
    o.first_retry = std::chrono::milliseconds(20);
    o.max_retry = std::chrono::milliseconds(80);
    o.timeout = std::chrono::milliseconds(2000);
    return o;
}

bool wait_for_health(ApiFeed& feed, FeedHealth want, int timeout_ms = 5000) {
    QSignalSpy spy(&feed, &SnapshotFeed::statusChanged);
    while (feed.health() != want) {
        if (!spy.wait(timeout_ms)) return false;
    }
    return true;
}

TEST(ApiFeed, SnapshotUrlFromDaemonAddress) {
    EXPECT_EQ(ApiFeed::snapshot_url_for(QUrl(QStringLiteral("http://127.0.0.1:9857"))).toString(),
              QStringLiteral("http://127.0.0.1:9857/api/v1/snapshot"));
    EXPECT_EQ(ApiFeed::snapshot_url_for(QUrl(QStringLiteral("http://h:1/prefix/"))).toString(),
              QStringLiteral("http://h:1/prefix/api/v1/snapshot"));
    EXPECT_EQ(
        ApiFeed::snapshot_url_for(QUrl(QStringLiteral("http://h:1/api/v1/snapshot"))).toString(),
        QStringLiteral("http://h:1/api/v1/snapshot"));
}

TEST(ApiFeed, ConnectsFailsOnGarbageAndHttpErrorsBacksOffAndReconnects) {
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    daemon.remember_port();
    daemon.body = QByteArray::fromStdString(
        testing::read_text(testing::api_fixture_path("mr-xprtrdma-stuck-30s.json")));
    ASSERT_FALSE(daemon.body.isEmpty());

    ApiFeed feed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(daemon.port())), fast());
    std::vector<SnapshotPtr> got;
    QObject::connect(&feed, &SnapshotFeed::snapshotReady, [&](SnapshotPtr s) { got.push_back(s); });
    feed.start();
    EXPECT_EQ(feed.health(), FeedHealth::connecting);
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::ok));
    ASSERT_FALSE(got.empty());
    const Snapshot expected = testing::load_api_fixture("mr-xprtrdma-stuck-30s.json");
    EXPECT_EQ(got.front()->sequence, expected.sequence);
    EXPECT_EQ(got.front()->devices, expected.devices);
    EXPECT_EQ(got.front()->mrs, expected.mrs);
    EXPECT_TRUE(
        feed.status_text().startsWith(QStringLiteral("Connected to daemon at http://127.0.0.1:")));

    daemon.answer = FakeDaemon::Answer::garbage;
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::failing));
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("not an rdmadiag snapshot")))
        << feed.status_text().toStdString();

    daemon.answer = FakeDaemon::Answer::snapshot;
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::ok));
    EXPECT_EQ(feed.failures(), 0);

    daemon.answer = FakeDaemon::Answer::http_error;
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::failing));
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("HTTP 503")))
        << feed.status_text().toStdString();

    // The daemon goes away: failures pile up and the wait between attempts doubles to its cap.
    daemon.close();
    QSignalSpy spy(&feed, &SnapshotFeed::statusChanged);
    while (feed.failures() < 4) ASSERT_TRUE(spy.wait(5000));
    EXPECT_EQ(feed.next_retry(), std::chrono::milliseconds(80));
    EXPECT_EQ(feed.health(), FeedHealth::failing);
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("Retrying in")));

    // It comes back on the same port: the feed reconnects by itself and the backoff resets.
    daemon.answer = FakeDaemon::Answer::snapshot;
    ASSERT_TRUE(daemon.listen(daemon.port()));
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::ok));
    EXPECT_EQ(feed.next_retry(), std::chrono::milliseconds(20));
}

TEST(ApiFeed, PeerThatHangsUpIsReportedNotFatal) {
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    daemon.answer = FakeDaemon::Answer::hang_up;
    ApiFeed feed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(daemon.port())), fast());
    feed.start();
    ASSERT_TRUE(wait_for_health(feed, FeedHealth::failing));
    EXPECT_TRUE(feed.status_text().startsWith(QStringLiteral("No data from daemon at")));
}

}  // namespace
}  // namespace rdmadiag::gui::client
