#include "gui/widgets/main_window.hpp"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTcpServer>
#include <QTest>
#include <QTreeView>
#include <algorithm>

#include "gui/client/api_feed.hpp"
#include "gui/client/engine_timeline.hpp"
#include "gui/client/gui_options.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/client/snapshot_recording.hpp"
#include "gui/models/consumer_table_model.hpp"
#include "gui/models/gid_table_model.hpp"
#include "gui/models/mr_process_model.hpp"
#include "gui/models/pkey_table_model.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/counter_chart.hpp"
#include "gui/widgets/counters_panel.hpp"
#include "gui/widgets/fabric_panel.hpp"
#include "gui/widgets/filtered_table.hpp"
#include "gui/widgets/findings_panel.hpp"
#include "gui/widgets/mr_panel.hpp"
#include "tests/gui/test_snapshots.hpp"
#include "tests/gui/widgets/view_cells.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::gui::widgets {
namespace {

using view_cells::cell;
using view_cells::row_of;

client::PlaybackFeed* recording_feed(std::vector<Snapshot> snapshots) {
    client::SnapshotRecording rec;
    for (auto& s : snapshots)
        rec.snapshots.push_back(std::make_shared<const Snapshot>(std::move(s)));
    return new client::PlaybackFeed(
        std::make_unique<client::SnapshotTimeline>(std::move(rec), "recording test"));
}

// A shipped scenario played through the engine offline (the collector's runtime on a ManualClock,
// as the dashboard plays it).
client::PlaybackFeed* scenario_feed(const std::string& scenario) {
    auto timeline = client::make_scenario_timeline(scenario, testing::at_seconds(0));
    EXPECT_TRUE(timeline.ok()) << scenario << ": "
                               << (timeline.ok() ? "" : timeline.error().message);
    return timeline.ok() ? new client::PlaybackFeed(std::move(*timeline)) : nullptr;
}

// Second by second, the way the playback bar moves, so the dashboard sees every snapshot.
void play_to(client::PlaybackFeed* feed, int seconds) {
    for (int s = 0; s <= seconds; ++s) feed->seek(std::chrono::seconds(s));
}

// pkey-change-missed-event: 0x8004 lands at index 4 at 10s and PKEY_CHANGE never comes. At 60s
// the engine judges the cache stale; the dashboard shows that judgement and the engine's diff.
TEST(MainWindow, PlayedMissedPKeyChangeFlagsTheStaleCacheEverywhere) {
    auto* feed = scenario_feed("pkey-change-missed-event");
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    play_to(feed, 60);
    const SnapshotPtr snap = window.models().snapshot();
    ASSERT_TRUE(snap);
    const PortRef port{"mlx5_0", 1};
    const PortSnapshot* engine_port = snap->find_port(port);
    ASSERT_NE(engine_port, nullptr);
    ASSERT_EQ(engine_port->pkeys.cache, CacheJudgement::stale);
    ASSERT_TRUE(engine_port->pkeys.last_diff.has_value());

    // Findings: the stale cache on top, on this port.
    auto* findings = window.findings_panel()->table()->view();
    ASSERT_GE(findings->model()->rowCount(), 1);
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::RuleColumn),
              QStringLiteral("pkey.cache_stale"));
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::SubjectColumn), QStringLiteral("mlx5_0:1"));

    // Port tree: the port carries the warning badge with its findings.
    EXPECT_EQ(window.models().current_port(), port);
    auto* tree = window.fabric_panel()->tree();
    const QModelIndex hcas = tree->model()->index(0, 0);
    ASSERT_EQ(hcas.data().toString(), QStringLiteral("HCAs (1)"));
    const QModelIndex device = tree->model()->index(0, 0, hcas);
    ASSERT_EQ(device.siblingAtColumn(models::PortTreeModel::KeyColumn).data().toString(),
              QStringLiteral("mlx5_0"));
    EXPECT_TRUE(tree->isExpanded(device));  // a few adapters: every port in sight
    const QModelIndex port_row = tree->model()->index(0, 0, device);
    ASSERT_TRUE(port_row.isValid());
    EXPECT_TRUE(port_row.siblingAtColumn(models::PortTreeModel::HealthColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("warning (")))
        << port_row.siblingAtColumn(models::PortTreeModel::HealthColumn)
               .data()
               .toString()
               .toStdString();

    // P_Key table view: the engine's judgement above the table, the engine's diff in it.
    const QString cache_line = window.fabric_panel()->cache_label()->text();
    EXPECT_TRUE(cache_line.startsWith(QStringLiteral("Cache STALE since")))
        << cache_line.toStdString();
    EXPECT_TRUE(cache_line.contains(QString::fromStdString(engine_port->pkeys.cache_note)))
        << cache_line.toStdString();
    EXPECT_TRUE(
        window.fabric_panel()->cache_label()->styleSheet().contains(QStringLiteral("#fde0e0")));
    auto* pkeys = window.fabric_panel()->pkey_view();
    const int row4 = row_of(pkeys, models::PKeyTableModel::IndexColumn, QStringLiteral("4"));
    ASSERT_GE(row4, 0);
    EXPECT_EQ(cell(pkeys, row4, models::PKeyTableModel::DeviceColumn),
              QStringLiteral("0x8004 full"));
    EXPECT_EQ(cell(pkeys, row4, models::PKeyTableModel::CacheColumn), QStringLiteral("(empty)"));
    EXPECT_TRUE(pkeys->model()
                    ->index(row4, models::PKeyTableModel::CacheColumn)
                    .data(models::PKeyTableModel::DiffersRole)
                    .toBool());
    EXPECT_EQ(cell(pkeys, row4, models::PKeyTableModel::ChangeColumn),
              QStringLiteral("added 0x8004"));
    EXPECT_EQ(cell(pkeys, row4, models::PKeyTableModel::IndexColumn,
                   models::PKeyTableModel::ChangeKindRole),
              QStringLiteral("added"));
    int changed_rows = 0;
    for (int r = 0; r < pkeys->model()->rowCount(); ++r) {
        if (!cell(pkeys, r, models::PKeyTableModel::ChangeColumn).isEmpty()) ++changed_rows;
    }
    EXPECT_EQ(changed_rows, static_cast<int>(engine_port->pkeys.last_diff->changes.size()));
    EXPECT_TRUE(pkeys->model()
                    ->headerData(models::PKeyTableModel::ChangeColumn, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("gen %1 -> %2")
                                  .arg(engine_port->pkeys.last_diff->old_generation)
                                  .arg(engine_port->pkeys.last_diff->new_generation)));
    EXPECT_TRUE(window.connection_label()->text().startsWith(
        QStringLiteral("Offline: scenario 'pkey-change-missed-event'")));
}

// mr-xprtrdma-stuck: MR 17's FASTREG fails with MW_BIND_ERR at 15s. At 30s it needs
// deregistration: flagged in the findings, the port tree and the MR table, with the advice the
// engine put in its record.
TEST(MainWindow, PlayedStuckMrIsFlaggedNeedsDeregistration) {
    auto* feed = scenario_feed("mr-xprtrdma-stuck");
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    play_to(feed, 30);
    const SnapshotPtr snap = window.models().snapshot();
    ASSERT_TRUE(snap);
    const auto stuck = std::find_if(snap->mrs.mrs.begin(), snap->mrs.mrs.end(),
                                    [](const MrRecord& r) { return r.mr == 17; });
    ASSERT_NE(stuck, snap->mrs.mrs.end());
    ASSERT_EQ(stuck->state, MrState::stuck);
    ASSERT_FALSE(stuck->advice.empty());

    auto* findings = window.findings_panel()->table()->view();
    ASSERT_GE(findings->model()->rowCount(), 1);
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::RuleColumn),
              QStringLiteral("mr.needs_dereg"));
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::SubjectColumn),
              QStringLiteral("mlx5_0 mr 17"));

    // The device is badged critical: the stuck MR is a device finding.
    auto* tree = window.fabric_panel()->tree();
    const QModelIndex device = tree->model()->index(0, 0, tree->model()->index(0, 0));
    ASSERT_EQ(device.data(models::PortTreeModel::DeviceRole).toString(), QStringLiteral("mlx5_0"));
    EXPECT_TRUE(device.siblingAtColumn(models::PortTreeModel::HealthColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("critical (")))
        << device.siblingAtColumn(models::PortTreeModel::HealthColumn)
               .data()
               .toString()
               .toStdString();

    auto* mrs = window.mr_panel()->table()->view();
    ASSERT_GE(mrs->model()->rowCount(), 1);
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::MrColumn), QStringLiteral("17"));
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::FlagColumn),
              QStringLiteral("needs deregistration"));
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::StateColumn), QStringLiteral("stuck"));
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::OwnerColumn), QStringLiteral("xprtrdma"));
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::LastOpColumn),
              QStringLiteral("FASTREG MW_BIND_ERR"));
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::AdviceColumn),
              QString::fromStdString(stuck->advice));
    // Filter by state: only the stuck one.
    auto* state = window.mr_panel()->state_box();
    state->setCurrentIndex(state->findData(QStringLiteral("stuck")));
    ASSERT_EQ(mrs->model()->rowCount(), 1);
    EXPECT_EQ(cell(mrs, 0, models::MrTableModel::MrColumn), QStringLiteral("17"));
    state->setCurrentIndex(0);
    EXPECT_EQ(mrs->model()->rowCount(), static_cast<int>(snap->mrs.mrs.size()));
}

// `rdmadiag-gui RECORDING` with an observation recording: replayed through the engine, the
// dashboard reaches the stale cache the recording leads to.
TEST(MainWindow, ObservationRecordingReplaysThroughTheEngine) {
    client::GuiOptions options;
    options.mode = client::GuiOptions::Mode::recording;
    options.target =
        ::rdmadiag::test::fixtures_dir() + "/recordings/sim-pkey-change-missed-event.jsonl";
    auto feed = client::make_feed(options);
    ASSERT_TRUE(feed.ok()) << feed.error().message;
    auto* playback = qobject_cast<client::PlaybackFeed*>(*feed);
    ASSERT_NE(playback, nullptr);
    MainWindow window(playback);
    window.show();
    for (int s = 0; s <= 90; s += 5) playback->seek(std::chrono::seconds(s));

    auto* findings = window.findings_panel()->table()->view();
    ASSERT_GE(findings->model()->rowCount(), 1);
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::RuleColumn),
              QStringLiteral("pkey.cache_stale"));
    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_0", 1}));
    EXPECT_TRUE(window.fabric_panel()->cache_label()->text().startsWith(
        QStringLiteral("Cache STALE since")));
    auto* pkeys = window.fabric_panel()->pkey_view();
    const int row4 = row_of(pkeys, models::PKeyTableModel::IndexColumn, QStringLiteral("4"));
    ASSERT_GE(row4, 0);
    EXPECT_EQ(cell(pkeys, row4, models::PKeyTableModel::ChangeColumn),
              QStringLiteral("added 0x8004"));
    EXPECT_TRUE(window.connection_label()->text().startsWith(
        QStringLiteral("Offline: recording ") + QString::fromStdString(options.target)))
        << window.connection_label()->text().toStdString();
}

TEST(MainWindow, KeyboardReachesEveryTabAndFiltersNarrowTables) {
    MainWindow window(recording_feed({testing::trouble_snapshot()}));
    window.show();
    window.start();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::keyClick(&window, Qt::Key_5, Qt::ControlModifier);
    EXPECT_EQ(window.tabs()->currentWidget(), window.mr_panel());
    QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
    EXPECT_EQ(window.tabs()->currentWidget(), window.events_panel());
    EXPECT_EQ(window.events_panel()->view()->model()->rowCount(), 2);
    // Newest first.
    EXPECT_EQ(cell(window.events_panel()->view(), 0, models::EventModel::TypeColumn),
              QStringLiteral("PKEY_CHANGE"));
    QTest::keyClicks(window.events_panel()->filter_edit(), QStringLiteral("qp_fatal"));
    ASSERT_EQ(window.events_panel()->view()->model()->rowCount(), 1);
    EXPECT_EQ(cell(window.events_panel()->view(), 0, models::EventModel::ElementColumn),
              QStringLiteral("0x1c5"));
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    EXPECT_TRUE(window.findings_panel()->table()->view()->hasFocus());
}

// Played through the engine: the P_Key table shows the move as the last change, the counter chart
// marks when the table changed.
TEST(MainWindow, ScenarioPlaybackHighlightsTheLastChangeAndMarksTheChart) {
    auto timeline = client::make_scenario_timeline("pkey-index-moved", testing::at_seconds(0));
    ASSERT_TRUE(timeline.ok());
    auto* feed = new client::PlaybackFeed(std::move(*timeline));
    MainWindow window(feed);
    window.show();
    for (int s = 0; s <= 40; s += 2) feed->seek(std::chrono::seconds(s));

    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_0", 1}));
    auto* pkeys = window.fabric_panel()->pkey_view();
    int moved = -1;
    for (int r = 0; r < pkeys->model()->rowCount(); ++r) {
        if (pkeys->model()->index(r, 0).data(models::PKeyTableModel::ChangeKindRole).toString() ==
            QStringLiteral("moved")) {
            EXPECT_EQ(moved, -1) << "one move";
            moved = r;
        }
    }
    ASSERT_GE(moved, 0);
    EXPECT_EQ(cell(pkeys, moved, models::PKeyTableModel::IndexColumn), QStringLiteral("7"));
    EXPECT_EQ(cell(pkeys, moved, models::PKeyTableModel::ChangeColumn),
              QStringLiteral("moved 0x8002 from index 2"));
    EXPECT_TRUE(pkeys->model()
                    ->headerData(models::PKeyTableModel::ChangeColumn, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("gen 1 -> 2")));

    auto* chart = window.counters_panel()->chart();
    EXPECT_GE(chart->series_count(), 1);  // the P_Key violation counter by default
    EXPECT_EQ(chart->change_marks(), 1);
}

TEST(MainWindow, DaemonThatIsNotThereShowsWhyInTheStatusBar) {
    // A loopback port nobody listens on: taken, then given back.
    QTcpServer probe;
    ASSERT_TRUE(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    client::ApiFeedOptions options;
    options.first_retry = std::chrono::milliseconds(50);
    auto* feed =
        new client::ApiFeed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), options);
    MainWindow window(feed);
    window.show();
    QSignalSpy spy(feed, &client::SnapshotFeed::statusChanged);
    window.start();
    while (feed->health() != client::FeedHealth::failing) ASSERT_TRUE(spy.wait(5000));
    const QString text = window.connection_label()->text();
    EXPECT_TRUE(
        text.startsWith(QStringLiteral("No data from daemon at http://127.0.0.1:%1").arg(port)))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Retrying in"))) << text.toStdString();
    EXPECT_TRUE(window.connection_label()->styleSheet().contains(QStringLiteral("#c62828")));
    EXPECT_EQ(window.findings_panel()->table()->view()->model()->rowCount(), 0);
}

}  // namespace
}  // namespace rdmadiag::gui::widgets

namespace rdmadiag::gui::widgets {
namespace {

// gid-prefix-missed-event: at 10s the SM moves both ports of mlx5_0 to fec0::; port 2 raises no
// GID_CHANGE, so its cache keeps fe80::. At 60s the GIDs tab of that port shows the cache beside
// the port, the difference marked, and the engine's judgement above.
TEST(MainWindow, PlayedGidPrefixChangeShowsTheStaleGidCache) {
    auto* feed = scenario_feed("gid-prefix-missed-event");
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    play_to(feed, 60);
    const PortRef port{"mlx5_0", 2};
    auto* findings = window.findings_panel()->table()->view();
    ASSERT_GE(findings->model()->rowCount(), 1);
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::RuleColumn),
              QStringLiteral("gid.cache_stale"));
    EXPECT_EQ(cell(findings, 0, models::FindingsModel::SubjectColumn), QStringLiteral("mlx5_0:2"));

    window.fabric_panel()->show_port(port);
    ASSERT_EQ(window.models().current_port(), port);
    window.fabric_panel()->port_tabs()->setCurrentIndex(1);
    EXPECT_TRUE(
        window.fabric_panel()->gid_label()->text().startsWith(QStringLiteral("GID cache STALE")))
        << window.fabric_panel()->gid_label()->text().toStdString();
    auto* gids = window.fabric_panel()->gid_view();
    ASSERT_EQ(gids->model()->rowCount(), 1);
    EXPECT_EQ(cell(gids, 0, models::GidTableModel::CacheColumn),
              QStringLiteral("fe80:0000:0000:0000:0c42:a103:00b1:c2d1"));
    EXPECT_EQ(cell(gids, 0, models::GidTableModel::SmaColumn),
              QStringLiteral("fec0:0000:0000:0000:0c42:a103:00b1:c2d1"));
    EXPECT_TRUE(gids->isColumnHidden(models::GidTableModel::NetdevColumn));
    EXPECT_FALSE(gids->isColumnHidden(models::GidTableModel::SmaColumn));
}

// ipoib-index-moved-no-restart: 0x8002 moves from index 2 to 7 at 10s under ib0.8002, whose
// restart never comes. Opening the consumer.index_moved finding shows the port's consumers with
// the child marked as hit and its index, still the stale 2, said as inferred.
TEST(MainWindow, ConsumerFindingOpensThePortsConsumersWithTheHitOneMarked) {
    auto* feed = scenario_feed("ipoib-index-moved-no-restart");
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    play_to(feed, 100);
    auto* findings = window.findings_panel()->table()->view();
    const int row =
        row_of(findings, models::FindingsModel::RuleColumn, QStringLiteral("consumer.index_moved"));
    ASSERT_GE(row, 0);
    window.fabric_panel()->port_tabs()->setCurrentIndex(0);
    Q_EMIT findings->activated(findings->model()->index(row, 0));
    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_0", 1}));
    EXPECT_TRUE(window.fabric_panel()->consumers_tab_current());

    auto* consumers = window.fabric_panel()->consumer_view();
    ASSERT_EQ(consumers->model()->rowCount(), 2);
    const int child =
        row_of(consumers, models::ConsumerTableModel::NameColumn, QStringLiteral("ib0.8002"));
    const int parent =
        row_of(consumers, models::ConsumerTableModel::NameColumn, QStringLiteral("ib0"));
    ASSERT_GE(child, 0);
    ASSERT_GE(parent, 0);
    EXPECT_EQ(cell(consumers, child, models::ConsumerTableModel::HitColumn),
              QStringLiteral("consumer.index_moved"));
    // Never restarted, the child still sends with the index its cache gave it.
    EXPECT_EQ(cell(consumers, child, models::ConsumerTableModel::IndexColumn),
              QStringLiteral("2 (inferred)"));
    EXPECT_EQ(cell(consumers, child, models::ConsumerTableModel::PKeyColumn),
              QStringLiteral("0x8002 full"));
    EXPECT_EQ(cell(consumers, child, models::ConsumerTableModel::TypeColumn),
              QStringLiteral("UD, datagram"));
    EXPECT_EQ(cell(consumers, parent, models::ConsumerTableModel::HitColumn), QString());
    EXPECT_EQ(consumers->currentIndex().row(), child) << "the hit consumer is brought into view";
    const QString summary = window.fabric_panel()->consumer_label()->text();
    EXPECT_TRUE(summary.startsWith(QStringLiteral("Consumers: 2 ipoib."))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("1 hit by a finding"))) << summary.toStdString();
}

TEST(MainWindow, PlayedOwnerGoneStoryShowsWhoHoldsTheMrs) {
    auto* feed = scenario_feed("mr-owner-gone");
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    play_to(feed, 60);
    auto* processes = window.mr_panel()->process_view();
    ASSERT_EQ(processes->model()->rowCount(), 2);
    // Largest first: kv-server's 800, then the 300 whose process is gone, tinted.
    EXPECT_EQ(cell(processes, 0, models::MrProcessModel::ProcessColumn),
              QStringLiteral("kv-server"));
    EXPECT_EQ(cell(processes, 0, models::MrProcessModel::MrsColumn), QStringLiteral("800"));
    EXPECT_EQ(cell(processes, 1, models::MrProcessModel::ProcessColumn),
              QStringLiteral("(exited)"));
    EXPECT_EQ(cell(processes, 1, models::MrProcessModel::FlagsColumn),
              QStringLiteral("owner gone"));
    EXPECT_TRUE(processes->model()->index(1, 0).data(models::MrProcessModel::FlaggedRole).toBool());
    const QString summary = window.mr_panel()->usage_summary()->text();
    EXPECT_TRUE(summary.contains(QStringLiteral("mlx5_0: 1,100 of 16,777,216 MRs")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("300 without a live owner")))
        << summary.toStdString();
}

}  // namespace
}  // namespace rdmadiag::gui::widgets
