// ApiFeed reading a daemon's partitions (/api/v1/partitions) with a fake daemon: nothing while
// they are not looked at; the list and the chosen partition's members while they are, once per
// snapshot (the change feed's sequence), again when the choice changes; a daemon that has no
// partitions route, a partition that is gone and an answer that is not one are said in words
// while the feed itself stays connected.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "collector/json/partitions_json.hpp"
#include "gui/client/api_feed.hpp"
#include "tests/gui/client/fake_daemon.hpp"
#include "tests/gui/partition_fixture.hpp"

namespace rdmadiag::gui::client {
namespace {

using testing::empty_changes;
using testing::FakeDaemon;
using testing::fast_feed_options;
using testing::wait_for_polls;
using json = codec::Json;

// A daemon whose change feed is at `sequence` (the test moves it) and whose partitions are the
// engine's judged model.
struct PartitionsDaemon {
    FakeDaemon daemon;
    uint64_t sequence = 5;
    SnapshotPtr snap = testing::judged_partitions_snapshot();

    PartitionsDaemon() {
        daemon.handlers["/api/v1/changes"] = [this](const QByteArray& target) {
            return empty_changes(sequence, target.endsWith("since=0"));
        };
        daemon.handlers["/api/v1/partitions"] = [this](const QByteArray& target) {
            std::optional<uint16_t> pkey;
            if (target.contains("pkey=")) {
                pkey = parse_pkey(target.mid(target.indexOf("pkey=") + 5).toStdString()).value();
            }
            json j = codec::partitions_to_json(*snap->partitions, pkey);
            j["sequence"] = sequence;
            return QByteArray::fromStdString(j.dump());
        };
    }
    qsizetype asked(const QByteArray& target) const { return daemon.targets.count(target); }
    qsizetype asked_partitions() const {
        qsizetype n = 0;
        for (const auto& t : daemon.targets) n += t.startsWith("/api/v1/partitions") ? 1 : 0;
        return n;
    }
};

TEST(ApiFeedPartitions, ReadOnlyWhileLookedAtAndOncePerSnapshot) {
    PartitionsDaemon d;
    ASSERT_TRUE(d.snap);
    ASSERT_TRUE(d.daemon.listen());
    ApiFeed feed(QUrl(d.daemon.url()), fast_feed_options());
    std::vector<models::PartitionListing> got;
    QObject::connect(
        &feed, &SnapshotFeed::partitionsReady,
        [&](const std::shared_ptr<const models::PartitionListing>& l) { got.push_back(*l); });
    feed.start();
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked_partitions(), 0) << "the Partitions tab is not shown";

    QSignalSpy ready(&feed, &SnapshotFeed::partitionsReady);
    feed.watch_partitions(true, 0x8003);
    while (got.size() < 2) ASSERT_TRUE(ready.wait(5000));
    EXPECT_FALSE(got[0].members_of.has_value());
    EXPECT_EQ(got[0].partitions, models::listing_of(*d.snap->partitions).partitions);
    EXPECT_EQ(got[1].members_of, 0x0003);
    EXPECT_EQ(got[1].members.size(), 2u);
    EXPECT_EQ(d.asked("/api/v1/partitions"), 1);
    EXPECT_EQ(d.asked("/api/v1/partitions?pkey=0x0003"), 1) << "asked by its base P_Key";

    // The daemon's snapshot stays the same: nothing is read again.
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked_partitions(), 2);
    // Another choice is read at the next poll, with the list.
    feed.watch_partitions(true, 0x0002);
    while (got.size() < 4) ASSERT_TRUE(ready.wait(5000));
    EXPECT_EQ(got[3].members_of, 0x0002);
    EXPECT_EQ(d.asked("/api/v1/partitions?pkey=0x0002"), 1);
    // A new snapshot: read again.
    ++d.sequence;
    while (got.size() < 6) ASSERT_TRUE(ready.wait(5000));
    EXPECT_EQ(d.asked("/api/v1/partitions"), 3);
    EXPECT_EQ(got[5].sequence, d.sequence);
    // Hidden again: not read, whatever changes.
    feed.watch_partitions(false, 0x0002);
    ++d.sequence;
    wait_for_polls(feed, 3);
    EXPECT_EQ(d.asked_partitions(), 6);
    // No partition chosen: the list alone.
    feed.watch_partitions(true, std::nullopt);
    while (got.size() < 7) ASSERT_TRUE(ready.wait(5000));
    wait_for_polls(feed, 2);
    EXPECT_EQ(d.asked_partitions(), 7);
    EXPECT_EQ(feed.health(), FeedHealth::ok);
}

TEST(ApiFeedPartitions, ADaemonWithoutPartitionsIsToldOnceAndNotAskedAgain) {
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    uint64_t sequence = 5;
    daemon.handlers["/api/v1/changes"] = [&](const QByteArray& target) {
        return empty_changes(++sequence, target.endsWith("since=0"));
    };
    ApiFeed feed(QUrl(daemon.url()), fast_feed_options());
    QStringList failures;
    QObject::connect(&feed, &SnapshotFeed::partitionsFailed,
                     [&](const QString& why) { failures << why; });
    QSignalSpy failed(&feed, &SnapshotFeed::partitionsFailed);
    feed.watch_partitions(true, 0x0003);
    feed.start();
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_TRUE(failures.front().contains(QStringLiteral("does not serve /api/v1/partitions")))
        << failures.front().toStdString();
    EXPECT_TRUE(failures.front().contains(QStringLiteral("no such route")));
    EXPECT_FALSE(feed.serves_partitions());
    wait_for_polls(feed, 3);
    EXPECT_EQ(failures.size(), 1);
    EXPECT_EQ(std::count_if(daemon.targets.begin(), daemon.targets.end(),
                            [](const QByteArray& t) { return t.startsWith("/api/v1/partitions"); }),
              1);
    EXPECT_EQ(feed.health(), FeedHealth::ok) << "the daemon itself answers";
}

TEST(ApiFeedPartitions, AGonePartitionAnErrorAndAnUnreadableAnswerAreSaidInWords) {
    PartitionsDaemon d;
    ASSERT_TRUE(d.snap);
    ASSERT_TRUE(d.daemon.listen());
    // What the daemon answers for a P_Key it has no partition of, and a member answer cut short.
    auto list = d.daemon.handlers["/api/v1/partitions"];
    d.daemon.handlers["/api/v1/partitions"] = [&, list](const QByteArray& target) -> QByteArray {
        if (target.endsWith("pkey=0x0042"))
            return R"({"error":"no partition 0x0042","status":404})";
        if (target.endsWith("pkey=0x0003")) return list(target).left(100);
        return list(target);
    };
    int list_status = 200;
    d.daemon.statuses["/api/v1/partitions"] = [&](const QByteArray& target) {
        if (target.endsWith("pkey=0x0042")) return 404;
        return target.contains("pkey=") ? 200 : list_status;
    };
    ApiFeed feed(QUrl(d.daemon.url()), fast_feed_options());
    QStringList failures;
    std::vector<models::PartitionListing> got;
    QObject::connect(&feed, &SnapshotFeed::partitionsFailed,
                     [&](const QString& why) { failures << why; });
    QObject::connect(
        &feed, &SnapshotFeed::partitionsReady,
        [&](const std::shared_ptr<const models::PartitionListing>& l) { got.push_back(*l); });
    QSignalSpy failed(&feed, &SnapshotFeed::partitionsFailed);
    feed.watch_partitions(true, 0x0042);
    feed.start();
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_EQ(failures.back(),
              QStringLiteral("the daemon answered HTTP 404 to the partition's members: no "
                             "partition 0x0042"));
    ASSERT_EQ(got.size(), 1u) << "the list was read";

    feed.watch_partitions(true, 0x0003);
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_TRUE(failures.back().startsWith(QStringLiteral("the partitions answer cannot be read")))
        << failures.back().toStdString();

    list_status = 503;
    ++d.sequence;
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_TRUE(failures.back().startsWith(
        QStringLiteral("the daemon answered HTTP 503 to the partition list")))
        << failures.back().toStdString();
    EXPECT_EQ(feed.health(), FeedHealth::ok) << "the change feed still answers";
    EXPECT_TRUE(feed.serves_partitions());
    EXPECT_EQ(got.size(), 2u) << "nothing more was read";
}

}  // namespace
}  // namespace rdmadiag::gui::client
