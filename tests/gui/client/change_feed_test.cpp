// The change-feed client against canned answers of GET /api/v1/changes (docs/json.md): reading
// them, and ApiFeed's protocol with a fake daemon: the full answer (since=0) first, then deltas
// from its sequence on,
// counters for the watched port only, a resync when the daemon's instance changes, and whole
// snapshots from a daemon that has no change feed.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QUrlQuery>

#include "collector/json/model_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "gui/client/api_feed.hpp"
#include "gui/client/change_feed_json.hpp"
#include "tests/gui/client/fake_daemon.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

using testing::FakeDaemon;
using testing::fast_feed_options;
using json = codec::Json;

// A device as the feed writes it: the snapshot's shape, a revision, and no counters.
json feed_device(const DeviceSnapshot& d, uint64_t revision) {
    json j = d;
    j["revision"] = revision;
    for (auto& p : j["ports"]) p.erase("counters");
    return j;
}

json changes(const std::string& instance, uint64_t sequence, bool full = false) {
    return json{{"instance", instance},
                {"sequence", sequence},
                {"time", "2026-12-02T10:01:00.000Z"},
                {"full", full},
                {"devices", json::array()}};
}

QByteArray bytes(const json& j) {
    return QByteArray::fromStdString(j.dump());
}

TEST(ChangeFeedJson, ReadsDevicesAndOnlyThePresentSections) {
    const Snapshot s = testing::trouble_snapshot();
    json j = changes("run-1", 42);
    j["devices"].push_back(feed_device(s.devices[1], 41));
    j["findings"] = s.findings;
    j["event_totals"] = json::array(
        {json{{"device", "mlx5_0"}, {"port", 1}, {"type", "PKEY_CHANGE"}, {"count", 3}}});
    auto d = parse_snapshot_delta(j.dump());
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->instance, "run-1");
    EXPECT_EQ(d->sequence, 42u);
    EXPECT_FALSE(d->full);
    ASSERT_EQ(d->devices.size(), 1u);
    EXPECT_EQ(d->devices[0].info.device, "mlx5_0");
    EXPECT_TRUE(d->devices[0].ports[0].counters.empty());
    EXPECT_EQ(d->devices[0].ports[0].pkeys, s.devices[1].ports[0].pkeys);
    ASSERT_TRUE(d->findings.has_value());
    EXPECT_EQ(*d->findings, s.findings);
    ASSERT_TRUE(d->event_totals.has_value());
    EXPECT_EQ(d->event_totals->at(0).type, AsyncEventType::pkey_change);
    EXPECT_EQ(d->event_totals->at(0).count, 3u);
    EXPECT_FALSE(d->device_names.has_value());
    EXPECT_FALSE(d->events.has_value());
    EXPECT_FALSE(d->mrs.has_value());
}

TEST(ChangeFeedJson, RefusesWhatIsNotAChangeFeed) {
    EXPECT_FALSE(parse_snapshot_delta("<html>").ok());
    EXPECT_FALSE(parse_snapshot_delta("[1,2]").ok());
    EXPECT_FALSE(parse_snapshot_delta(R"({"sequence": 3})").ok());  // no instance
    json j = changes("run-1", 3);
    j["devices"] = json::array({json{{"present", true}}});  // a device without info
    EXPECT_FALSE(parse_snapshot_delta(j.dump()).ok());
}

TEST(ChangeFeedJson, ReadsOnePortsCounters) {
    const Snapshot s = testing::trouble_snapshot();
    const auto& p = s.devices[1].ports[0];
    const json j{
        {"version", 1},
        {"sequence", 7},
        {"time", "2026-12-02T10:01:00.000Z"},
        {"ports",
         json::array({json{{"device", "mlx5_0"}, {"port", 1}, {"counters", p.counters}}})}};
    auto c = parse_port_counters(j.dump(), p.ref);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->counters, p.counters);
    EXPECT_EQ(c->time, *parse_time("2026-12-02T10:01:00Z"));
    EXPECT_FALSE(parse_port_counters(j.dump(), PortRef{"mlx5_0", 2}).ok());
}

// The `since` of every change poll the daemon saw.
std::vector<uint64_t> since_values(const FakeDaemon& d) {
    std::vector<uint64_t> out;
    for (const auto& t : d.targets) {
        if (!t.startsWith("/api/v1/changes?")) continue;
        out.push_back(QUrlQuery(QString::fromUtf8(t.mid(t.indexOf('?') + 1)))
                          .queryItemValue("since")
                          .toULongLong());
    }
    return out;
}

// The feed's full answer: every device of `s` (without counters) and every section.
json full_answer(const std::string& instance, const Snapshot& s, uint64_t sequence) {
    json j = changes(instance, sequence, /*full=*/true);
    for (const auto& d : s.devices) j["devices"].push_back(feed_device(d, sequence));
    json names = json::array();
    for (const auto& d : s.devices) names.push_back(d.info.device);
    j["device_names"] = names;
    j["findings"] = s.findings;
    return j;
}

TEST(ApiFeedChanges, TheFullAnswerThenDeltasFromItsSequenceAndTheWatchedPortsCounters) {
    const Snapshot s = testing::trouble_snapshot();  // sequence 42
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    daemon.routes["/api/v1/snapshot"] =
        QByteArray::fromStdString(codec::snapshot_to_json(s).dump());
    daemon.handlers["/api/v1/changes"] = [&](const QByteArray& target) {
        if (target.endsWith("since=0")) return bytes(full_answer("run-1", s, s.sequence));
        return bytes(changes("run-1", s.sequence + 1));
    };
    daemon.routes["/api/v1/counters"] = bytes(json{
        {"version", 1},
        {"sequence", s.sequence + 1},
        {"time", "2026-12-02T10:01:00.000Z"},
        {"ports",
         json::array({json{
             {"device", "mlx5_0"}, {"port", 1}, {"counters", s.devices[1].ports[0].counters}}})}});

    ApiFeed feed(QUrl(daemon.url()), fast_feed_options());
    int snapshots = 0;
    std::vector<models::SnapshotDelta> deltas;
    std::vector<bool> restarts;
    std::vector<PortRef> counted;
    QObject::connect(&feed, &SnapshotFeed::snapshotReady, [&](SnapshotPtr) { ++snapshots; });
    QObject::connect(&feed, &SnapshotFeed::deltaReady,
                     [&](const std::shared_ptr<models::SnapshotDelta>& d, bool restart) {
                         restarts.push_back(restart);
                         deltas.push_back(*d);
                     });
    QObject::connect(&feed, &SnapshotFeed::countersReady,
                     [&](const PortRef& p, const std::vector<CounterState>& c, TimePoint) {
                         counted.push_back(p);
                         EXPECT_EQ(c, s.devices[1].ports[0].counters);
                     });
    QSignalSpy delta_spy(&feed, &SnapshotFeed::deltaReady);
    feed.start();
    while (deltas.size() < 3) ASSERT_TRUE(delta_spy.wait(5000)) << feed.status_text().toStdString();
    EXPECT_EQ(snapshots, 0) << "the whole snapshot, counters and all, is never read";
    EXPECT_TRUE(deltas[0].full);
    EXPECT_EQ(deltas[0].devices.size(), s.devices.size());
    EXPECT_TRUE(restarts[0]) << "the first answer replaces whatever the window showed";
    EXPECT_FALSE(restarts[1]);
    EXPECT_FALSE(deltas[1].full);
    EXPECT_EQ(feed.protocol(), ApiFeed::Protocol::changes);
    EXPECT_EQ(feed.health(), FeedHealth::ok);
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("change feed")));
    const auto since = since_values(daemon);
    ASSERT_GE(since.size(), 3u);
    EXPECT_EQ(since[0], 0u);
    EXPECT_EQ(since[1], s.sequence);  // from the full answer on
    EXPECT_EQ(since[2], s.sequence + 1);
    EXPECT_TRUE(counted.empty()) << "counters read before a port was watched";

    feed.watch_port(PortRef{"mlx5_0", 1});
    QSignalSpy counter_spy(&feed, &SnapshotFeed::countersReady);
    ASSERT_TRUE(counter_spy.wait(5000));
    EXPECT_EQ(counted.back(), (PortRef{"mlx5_0", 1}));
    EXPECT_TRUE(daemon.targets.contains("/api/v1/counters?device=mlx5_0&port=1"))
        << daemon.targets.join(' ').toStdString();
    EXPECT_EQ(std::count(daemon.targets.begin(), daemon.targets.end(), "/api/v1/snapshot"), 0);
}

TEST(ApiFeedChanges, AnotherDaemonRunStartsOverFromScratch) {
    const Snapshot s = testing::trouble_snapshot();
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    // Run 1 answers its full answer and then deltas; then the daemon restarts as run 2, whose
    // sequence starts low again, and which answers since=0 (and only that) with everything.
    bool restarted = false;
    daemon.handlers["/api/v1/changes"] = [&](const QByteArray& target) {
        const bool from_scratch = target.endsWith("since=0");
        if (!restarted) {
            return bytes(from_scratch ? full_answer("run-1", s, s.sequence)
                                      : changes("run-1", s.sequence + 1));
        }
        if (from_scratch) return bytes(full_answer("run-2", s, 6));
        return bytes(changes("run-2", 5));
    };
    ApiFeed feed(QUrl(daemon.url()), fast_feed_options());
    std::vector<bool> restarts;
    std::vector<bool> fulls;
    QObject::connect(&feed, &SnapshotFeed::deltaReady,
                     [&](const std::shared_ptr<models::SnapshotDelta>& d, bool restart) {
                         restarts.push_back(restart);
                         fulls.push_back(d->full);
                     });
    QSignalSpy spy(&feed, &SnapshotFeed::deltaReady);
    feed.start();
    while (restarts.size() < 2) ASSERT_TRUE(spy.wait(5000));
    EXPECT_TRUE(restarts[0]);
    EXPECT_FALSE(restarts[1]);
    restarted = true;
    while (!restarts.back()) ASSERT_TRUE(spy.wait(5000));
    // The first delta of run 2 that reaches the receiver is the full one, marked as a restart.
    EXPECT_TRUE(fulls.back());
    const auto since = since_values(daemon);
    EXPECT_GE(std::count(since.begin(), since.end(), 0u), 2) << "from scratch, once per run";
    EXPECT_EQ(feed.since(), 6u);
    ASSERT_TRUE(spy.wait(5000));
    EXPECT_FALSE(restarts.back());  // and the deltas after it go on from there
}

TEST(ApiFeedChanges, ADaemonWithoutAChangeFeedIsReadWhole) {
    FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    daemon.routes["/api/v1/snapshot"] = QByteArray::fromStdString(
        testing::read_text(testing::api_fixture_path("mr-xprtrdma-stuck-30s.json")));
    ApiFeed feed(QUrl(daemon.url()), fast_feed_options());
    int snapshots = 0;
    QObject::connect(&feed, &SnapshotFeed::snapshotReady, [&](SnapshotPtr) { ++snapshots; });
    QSignalSpy spy(&feed, &SnapshotFeed::snapshotReady);
    feed.start();
    while (snapshots < 3) ASSERT_TRUE(spy.wait(5000)) << feed.status_text().toStdString();
    EXPECT_EQ(feed.protocol(), ApiFeed::Protocol::snapshots);
    EXPECT_EQ(feed.health(), FeedHealth::ok);
    // One question to the change feed (404), then only snapshots.
    EXPECT_EQ(since_values(daemon).size(), 1u);
}

}  // namespace
}  // namespace rdmadiag::gui::client
