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

#include "gui/client/api_feed.hpp"
#include "gui/client/engine_timeline.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/client/snapshot_recording.hpp"
#include "gui/models/pkey_table_model.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/counter_chart.hpp"
#include "gui/widgets/counters_panel.hpp"
#include "gui/widgets/fabric_panel.hpp"
#include "gui/widgets/filtered_table.hpp"
#include "gui/widgets/findings_panel.hpp"
#include "gui/widgets/mr_panel.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui {
namespace {

QString cell(QAbstractItemView* view, int row, int column, int role = Qt::DisplayRole) {
    return view->model()->index(row, column).data(role).toString();
}

PlaybackFeed* recording_feed(std::vector<Snapshot> snapshots) {
    SnapshotRecording rec;
    for (auto& s : snapshots)
        rec.snapshots.push_back(std::make_shared<const Snapshot>(std::move(s)));
    return new PlaybackFeed(std::make_unique<SnapshotTimeline>(std::move(rec), "recording test"));
}

// The snapshot is built by hand (tests/gui/test_snapshots.hpp) with the findings the P_Key and MR
// rules raise: a stale cache on mlx5_0:1 and MR 17 stuck.
TEST(MainWindow, StaleCacheAndStuckMrAreFlaggedFirstAndInTheirTables) {
    MainWindow window(recording_feed({testing::trouble_snapshot()}));
    window.show();
    window.start();

    auto* findings = window.findings_panel()->table()->view();
    ASSERT_EQ(findings->model()->rowCount(), 3);
    EXPECT_EQ(cell(findings, 0, FindingsModel::RuleColumn), QStringLiteral("mr.needs_dereg"));
    EXPECT_EQ(cell(findings, 0, FindingsModel::SubjectColumn), QStringLiteral("mlx5_0 mr 17"));
    EXPECT_EQ(cell(findings, 1, FindingsModel::RuleColumn), QStringLiteral("pkey.cache_stale"));
    EXPECT_EQ(cell(findings, 1, FindingsModel::SubjectColumn), QStringLiteral("mlx5_0:1"));

    // The fabric tab opens on the port with the stale cache; the cache column is tinted where it
    // misses the device's new key, and the summary says STALE.
    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_0", 1}));
    EXPECT_TRUE(
        window.fabric_panel()->cache_label()->text().startsWith(QStringLiteral("Cache STALE")));
    auto* pkeys = window.fabric_panel()->pkey_view();
    int row4 = -1;
    for (int r = 0; r < pkeys->model()->rowCount(); ++r) {
        if (cell(pkeys, r, PKeyTableModel::IndexColumn) == QStringLiteral("4")) row4 = r;
    }
    ASSERT_GE(row4, 0);
    EXPECT_EQ(cell(pkeys, row4, PKeyTableModel::DeviceColumn), QStringLiteral("0x8004 full"));
    EXPECT_EQ(cell(pkeys, row4, PKeyTableModel::CacheColumn), QStringLiteral("(empty)"));
    EXPECT_TRUE(pkeys->model()
                    ->index(row4, PKeyTableModel::CacheColumn)
                    .data(PKeyTableModel::DiffersRole)
                    .toBool());
    EXPECT_FALSE(pkeys->model()
                     ->index(row4, PKeyTableModel::SmColumn)
                     .data(PKeyTableModel::DiffersRole)
                     .toBool());
    EXPECT_TRUE(pkeys->model()
                    ->headerData(PKeyTableModel::CacheColumn, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("gen 1")));

    // The MR table lists the stuck MR first, flagged, with its advice.
    auto* mrs = window.mr_panel()->table()->view();
    ASSERT_EQ(mrs->model()->rowCount(), 2);
    EXPECT_EQ(cell(mrs, 0, MrTableModel::FlagColumn), QStringLiteral("needs deregistration"));
    EXPECT_EQ(cell(mrs, 0, MrTableModel::MrColumn), QStringLiteral("17"));
    EXPECT_TRUE(cell(mrs, 0, MrTableModel::AdviceColumn)
                    .contains(QStringLiteral("deregister and re-allocate")));
    // Filter by state.
    auto* state = window.mr_panel()->state_box();
    state->setCurrentIndex(state->findData(QStringLiteral("stuck")));
    EXPECT_EQ(mrs->model()->rowCount(), 1);
    state->setCurrentIndex(state->findData(QStringLiteral("valid")));
    ASSERT_EQ(mrs->model()->rowCount(), 1);
    EXPECT_EQ(cell(mrs, 0, MrTableModel::OwnerColumn), QStringLiteral("fio (pid 4242)"));
    state->setCurrentIndex(0);
    EXPECT_EQ(mrs->model()->rowCount(), 2);

    // The port tree badges the device critical (stuck MR) and the port warning (stale cache).
    auto* tree = window.fabric_panel()->tree();
    const QModelIndex mlx = tree->model()->index(1, PortTreeModel::HealthColumn);
    EXPECT_EQ(mlx.data().toString(), QStringLiteral("critical (2)"));

    EXPECT_TRUE(
        window.connection_label()->text().startsWith(QStringLiteral("Offline: recording test")));
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
    EXPECT_EQ(cell(window.events_panel()->view(), 0, EventModel::TypeColumn),
              QStringLiteral("PKEY_CHANGE"));
    QTest::keyClicks(window.events_panel()->filter_edit(), QStringLiteral("qp_fatal"));
    ASSERT_EQ(window.events_panel()->view()->model()->rowCount(), 1);
    EXPECT_EQ(cell(window.events_panel()->view(), 0, EventModel::ElementColumn),
              QStringLiteral("0x1c5"));
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    EXPECT_TRUE(window.findings_panel()->table()->view()->hasFocus());
}

// Played through the engine: the P_Key table shows the move as the last change, the counter chart
// marks when the table changed.
TEST(MainWindow, ScenarioPlaybackHighlightsTheLastChangeAndMarksTheChart) {
    auto timeline = make_scenario_timeline("pkey-index-moved", testing::at_seconds(0));
    ASSERT_TRUE(timeline.ok());
    auto* feed = new PlaybackFeed(std::move(*timeline));
    MainWindow window(feed);
    window.show();
    for (int s = 0; s <= 40; s += 2) feed->seek(std::chrono::seconds(s));

    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_0", 1}));
    auto* pkeys = window.fabric_panel()->pkey_view();
    int moved = -1;
    for (int r = 0; r < pkeys->model()->rowCount(); ++r) {
        if (pkeys->model()->index(r, 0).data(PKeyTableModel::ChangeKindRole).toString() ==
            QStringLiteral("moved")) {
            EXPECT_EQ(moved, -1) << "one move";
            moved = r;
        }
    }
    ASSERT_GE(moved, 0);
    EXPECT_EQ(cell(pkeys, moved, PKeyTableModel::IndexColumn), QStringLiteral("7"));
    EXPECT_EQ(cell(pkeys, moved, PKeyTableModel::ChangeColumn),
              QStringLiteral("moved 0x8002 from index 2"));
    EXPECT_TRUE(pkeys->model()
                    ->headerData(PKeyTableModel::ChangeColumn, Qt::Horizontal)
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
    ApiFeedOptions options;
    options.first_retry = std::chrono::milliseconds(50);
    auto* feed = new ApiFeed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), options);
    MainWindow window(feed);
    window.show();
    QSignalSpy spy(feed, &SnapshotFeed::statusChanged);
    window.start();
    while (feed->health() != FeedHealth::failing) ASSERT_TRUE(spy.wait(5000));
    const QString text = window.connection_label()->text();
    EXPECT_TRUE(
        text.startsWith(QStringLiteral("No data from daemon at http://127.0.0.1:%1").arg(port)))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Retrying in"))) << text.toStdString();
    EXPECT_TRUE(window.connection_label()->styleSheet().contains(QStringLiteral("#c62828")));
    EXPECT_EQ(window.findings_panel()->table()->view()->model()->rowCount(), 0);
}

}  // namespace
}  // namespace rdmadiag::gui
