#include "gui/client/api_feed.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include "tests/gui/client/fake_daemon.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

using testing::FakeDaemon;

ApiFeedOptions fast() {
    ApiFeedOptions o = testing::fast_feed_options();
    o.max_retry = std::chrono::milliseconds(80);
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
    // A daemon without the change feed: the feed falls back to whole snapshots.
    daemon.routes["/api/v1/snapshot"] = QByteArray::fromStdString(
        testing::read_text(testing::api_fixture_path("mr-xprtrdma-stuck-30s.json")));
    ASSERT_FALSE(daemon.routes["/api/v1/snapshot"].isEmpty());

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

    daemon.answer = FakeDaemon::Answer::routes;
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
    daemon.answer = FakeDaemon::Answer::routes;
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
