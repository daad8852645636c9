// ApiFeed reading a daemon's consumers (/api/v1/consumers) with a fake daemon: nothing while the
// Consumers tab is not looked at; once per snapshot (the change feed's sequence) while it is; a
// daemon without a consumers source gives none, one without the route is told once and not asked
// again, and an answer that is not one is said in words while the feed stays connected.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "collector/json/consumer_json.hpp"
#include "gui/client/api_feed.hpp"
#include "tests/gui/client/fake_daemon.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

using testing::empty_changes;
using testing::FakeDaemon;
using testing::fast_feed_options;
using testing::wait_for_polls;
using json = codec::Json;

HostConsumers sample_consumers() {
    Consumer c;
    c.kind = ConsumerKind::ipoib;
    c.name = "ib0.8002";
    c.device = "mlx5_0";
    c.port = 1;
    c.pkey = 0x8002;
    c.qp_type = "UD";
    c.mode = "datagram";
    c.parent = "ib0";
    ConsumerInventory inv{"mlx5_0", {c}, true, {}};
    return HostConsumers{{inv}, {testing::at_seconds(30)}};
}

struct ConsumersDaemon {
    FakeDaemon daemon;
    uint64_t sequence = 5;
    std::optional<HostConsumers> consumers = sample_consumers();

    ConsumersDaemon() {
        daemon.handlers["/api/v1/changes"] = [this](const QByteArray& target) {
            return empty_changes(sequence, target.endsWith("since=0"));
        };
        daemon.handlers["/api/v1/consumers"] = [this](const QByteArray&) {
            const json j = codec::consumers_to_json(consumers ? &*consumers : nullptr, {},
                                                    std::nullopt, std::nullopt);
            return QByteArray::fromStdString(j.dump());
        };
    }
    qsizetype asked() const { return daemon.targets.count("/api/v1/consumers"); }
};

TEST(ApiFeedConsumers, ReadOnlyWhileLookedAtAndOncePerSnapshot) {
    ConsumersDaemon d;
    ASSERT_TRUE(d.daemon.listen());
    ApiFeed feed(QUrl(d.daemon.url()), fast_feed_options());
    std::vector<std::shared_ptr<const HostConsumers>> got;
    QObject::connect(&feed, &SnapshotFeed::consumersReady,
                     [&](const std::shared_ptr<const HostConsumers>& c) { got.push_back(c); });
    feed.start();
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked(), 0) << "the Consumers tab is not shown";

    QSignalSpy ready(&feed, &SnapshotFeed::consumersReady);
    feed.watch_consumers(true);
    ASSERT_TRUE(ready.wait(5000));
    ASSERT_TRUE(got.back());
    EXPECT_EQ(*got.back(), sample_consumers());
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked(), 1) << "the same snapshot: not read again";

    ++d.sequence;
    d.consumers.reset();  // the daemon has no consumers source (a subnet sweep)
    ASSERT_TRUE(ready.wait(5000));
    EXPECT_EQ(got.back(), nullptr);
    EXPECT_EQ(d.asked(), 2);

    feed.watch_consumers(false);
    ++d.sequence;
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked(), 2);
    EXPECT_EQ(feed.health(), FeedHealth::ok);
}

TEST(ApiFeedConsumers, ADaemonWithoutTheRouteIsToldOnceAndAGarbledAnswerInWords) {
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    uint64_t sequence = 5;
    daemon.handlers["/api/v1/changes"] = [&](const QByteArray& target) {
        return empty_changes(++sequence, target.endsWith("since=0"));
    };
    ApiFeed feed(QUrl(daemon.url()), fast_feed_options());
    QStringList failures;
    QObject::connect(&feed, &SnapshotFeed::consumersFailed,
                     [&](const QString& why) { failures << why; });
    QSignalSpy failed(&feed, &SnapshotFeed::consumersFailed);
    feed.watch_consumers(true);
    feed.start();
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_TRUE(failures.front().contains(QStringLiteral("does not serve /api/v1/consumers")))
        << failures.front().toStdString();
    EXPECT_FALSE(feed.serves_consumers());
    wait_for_polls(feed, 3);
    EXPECT_EQ(failures.size(), 1);
    EXPECT_EQ(daemon.targets.count("/api/v1/consumers"), 1);
    EXPECT_EQ(feed.health(), FeedHealth::ok) << "the daemon itself answers";

    ApiFeed other(QUrl(daemon.url()), fast_feed_options());
    daemon.routes["/api/v1/consumers"] = R"({"listed": true, "devices": [{"device": 3}]})";
    QStringList garbled;
    QObject::connect(&other, &SnapshotFeed::consumersFailed,
                     [&](const QString& why) { garbled << why; });
    QSignalSpy other_failed(&other, &SnapshotFeed::consumersFailed);
    other.watch_consumers(true);
    other.start();
    ASSERT_TRUE(other_failed.wait(5000));
    EXPECT_TRUE(garbled.front().startsWith(
        QStringLiteral("the consumers answer cannot be read: malformed consumers answer")))
        << garbled.front().toStdString();
    EXPECT_EQ(other.health(), FeedHealth::ok);
}

}  // namespace
}  // namespace rdmadiag::gui::client
