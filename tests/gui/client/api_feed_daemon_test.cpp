// ApiFeed against a real `rdmadiag serve --simulate` on loopback: one snapshot, then the change
// feed's deltas and the watched port's counters decode, and when the daemon is stopped the feed
// says so and keeps retrying. Skips when this build has no HTTP exporter (no rdmadiag serve).
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>

#include "gui/client/api_feed.hpp"
#include "tests/gui/test_snapshots.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::gui::client {
namespace {

const QString kRdmadiag = QString::fromStdString(::rdmadiag::test::binary_dir() + "/cli/rdmadiag");

// Starts the daemon on a free loopback port and returns the port, or 0 (with the log in `why`).
int start_daemon(QProcess& p, QString& why,
                 const QStringList& simulate = {QStringLiteral("--simulate=mr-xprtrdma-stuck")}) {
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(kRdmadiag, QStringList{QStringLiteral("serve"),
                                   QStringLiteral("--web.listen-address=127.0.0.1:0")} +
                           simulate);
    if (!p.waitForStarted(10000)) {
        why = p.errorString();
        return 0;
    }
    static const QRegularExpression listening(QStringLiteral("msg=listening .*port=(\\d+)"));
    QByteArray log;
    while (p.state() == QProcess::Running && p.waitForReadyRead(30000)) {
        log += p.readAll();
        const auto m = listening.match(QString::fromUtf8(log));
        if (m.hasMatch()) return m.captured(1).toInt();
    }
    why = QString::fromUtf8(log + p.readAll());
    return 0;
}

TEST(ApiFeedDaemon, ReadsALiveDaemonAndReportsWhenItGoesAway) {
    if (!QFileInfo(kRdmadiag).isExecutable()) {
        GTEST_SKIP() << kRdmadiag.toStdString()
                     << " not built (the HTTP exporter needs Boost, OpenSSL and zlib)";
    }
    QProcess daemon;
    QString why;
    const int port = start_daemon(daemon, why);
    ASSERT_GT(port, 0) << "rdmadiag serve did not start: " << why.toStdString();

    ApiFeedOptions options;
    options.interval = std::chrono::milliseconds(100);
    options.first_retry = std::chrono::milliseconds(50);
    ApiFeed feed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), options);
    std::vector<SnapshotPtr> got;
    std::vector<uint64_t> deltas;
    std::vector<bool> fulls;
    bool saw_mlx5_0 = false;
    std::vector<PortRef> counted;
    QObject::connect(&feed, &SnapshotFeed::snapshotReady, [&](SnapshotPtr s) { got.push_back(s); });
    QObject::connect(&feed, &SnapshotFeed::deltaReady,
                     [&](const std::shared_ptr<models::SnapshotDelta>& d, bool) {
                         deltas.push_back(d->sequence);
                         fulls.push_back(d->full);
                         for (const auto& dev : d->devices)
                             saw_mlx5_0 = saw_mlx5_0 || dev.info.device == "mlx5_0";
                     });
    QObject::connect(&feed, &SnapshotFeed::countersReady,
                     [&](const PortRef& p, const std::vector<CounterState>&, TimePoint) {
                         counted.push_back(p);
                     });
    QSignalSpy status(&feed, &SnapshotFeed::statusChanged);
    QSignalSpy delta_spy(&feed, &SnapshotFeed::deltaReady);
    feed.start();
    // The daemon's change feed: its full answer, then deltas that go on from its sequence.
    while (deltas.size() < 2) {
        ASSERT_TRUE(delta_spy.wait(10000)) << feed.status_text().toStdString();
    }
    EXPECT_EQ(feed.health(), FeedHealth::ok);
    EXPECT_EQ(feed.protocol(), ApiFeed::Protocol::changes);
    EXPECT_TRUE(got.empty()) << "no whole snapshot is read from a daemon with a change feed";
    EXPECT_TRUE(fulls.front());
    EXPECT_FALSE(fulls.back());
    EXPECT_TRUE(saw_mlx5_0);
    EXPECT_GE(deltas.back(), deltas.front());
    // The watched port's counters come on their own.
    feed.watch_port(PortRef{"mlx5_0", 1});
    QSignalSpy counters(&feed, &SnapshotFeed::countersReady);
    if (counted.empty()) {
        ASSERT_TRUE(counters.wait(10000));
    }
    EXPECT_EQ(counted.front(), (PortRef{"mlx5_0", 1}));

    daemon.terminate();
    ASSERT_TRUE(daemon.waitForFinished(10000));
    while (feed.health() != FeedHealth::failing) ASSERT_TRUE(status.wait(10000));
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("Connection refused")))
        << feed.status_text().toStdString();
}

// The daemon judging its simulated fabric against an intent: the feed reads its partitions as
// the daemon serves them, the list and then one partition's member ports.
TEST(ApiFeedDaemon, ReadsTheDaemonsPartitionsWhileAskedTo) {
    if (!QFileInfo(kRdmadiag).isExecutable()) {
        GTEST_SKIP() << kRdmadiag.toStdString()
                     << " not built (the HTTP exporter needs Boost, OpenSSL and zlib)";
    }
    QProcess daemon;
    QString why;
    const int port =
        start_daemon(daemon, why,
                     {QStringLiteral("--simulate"), QStringLiteral("--partitions.conf"),
                      QString::fromStdString(::rdmadiag::test::fixtures_dir() +
                                             "/partitions/sim-default.conf")});
    ASSERT_GT(port, 0) << "rdmadiag serve did not start: " << why.toStdString();
    ApiFeedOptions options;
    options.interval = std::chrono::milliseconds(100);
    ApiFeed feed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), options);
    std::vector<models::PartitionListing> got;
    QStringList failures;
    // Until the partitions source has read the file the daemon knows no partition 0x0003, and
    // asking for its members is answered 404; from the first judged answer on, nothing may fail.
    bool judged_once = false;
    QObject::connect(&feed, &SnapshotFeed::partitionsReady,
                     [&](const std::shared_ptr<const models::PartitionListing>& l) {
                         got.push_back(*l);
                         if (l->members_of && l->intent && !l->members.empty()) judged_once = true;
                     });
    QObject::connect(&feed, &SnapshotFeed::partitionsFailed, [&](const QString& w) {
        if (judged_once) failures << w;
    });
    QSignalSpy ready(&feed, &SnapshotFeed::partitionsReady);
    feed.watch_partitions(true, 0x8003);
    feed.start();
    // The daemon judges once the partitions source has read the file: until then the model has
    // no intent.
    auto judged = [&] {
        return std::any_of(got.begin(), got.end(), [](const models::PartitionListing& l) {
            return l.members_of && l.intent && !l.members.empty();
        });
    };
    while (!judged()) ASSERT_TRUE(ready.wait(10000)) << failures.join(' ').toStdString();
    // Two more rounds of the list and the members, read without a failure.
    for (int answer = 0; answer < 4; ++answer) ASSERT_TRUE(ready.wait(10000));
    EXPECT_TRUE(failures.isEmpty()) << failures.join(' ').toStdString();
    const auto& members = std::find_if(got.rbegin(), got.rend(), [](const auto& l) {
                              return l.members_of && l.intent;
                          })->members;
    ASSERT_EQ(members.size(), 2u);
    EXPECT_EQ(members[0].node, "node01 HCA-1");
    EXPECT_EQ(members[0].difference, MemberDifference::mismatch);
    EXPECT_EQ(members[1].difference, MemberDifference::missing);
    const auto list = std::find_if(got.rbegin(), got.rend(),
                                   [](const auto& l) { return !l.members_of && l.intent; });
    ASSERT_NE(list, got.rend());
    EXPECT_GE(list->partitions.size(), 4u);
    ASSERT_TRUE(list->intent_file.has_value());
    EXPECT_TRUE(list->intent_file->path.ends_with("sim-default.conf"));
    daemon.terminate();
    daemon.waitForFinished(10000);
}

}  // namespace
}  // namespace rdmadiag::gui::client
