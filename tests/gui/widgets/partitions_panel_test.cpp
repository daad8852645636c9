// The Partitions tab: played against an intent it shows each partition's members per view with
// the differences highlighted and the partition's findings, filters by P_Key, and takes the user
// from a member port to that port in the fabric view and from a partition's finding to the
// partition. Against a daemon it reads the partitions only while the tab is shown.
#include <gtest/gtest.h>

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

#include "collector/json/model_json.hpp"
#include "collector/json/partitions_json.hpp"
#include "gui/client/api_feed.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/models/partition_filter_proxy.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/fabric_panel.hpp"
#include "gui/widgets/filtered_table.hpp"
#include "gui/widgets/findings_panel.hpp"
#include "gui/widgets/main_window.hpp"
#include "gui/widgets/partitions_panel.hpp"
#include "tests/gui/client/fake_daemon.hpp"
#include "tests/gui/partition_fixture.hpp"
#include "tests/gui/widgets/view_cells.hpp"

namespace rdmadiag::gui::widgets {
namespace {

using view_cells::cell;
using view_cells::row_of;

using json = codec::Json;
using List = models::PartitionListModel;
using Members = models::PartitionMemberModel;

// The default scenario against its intent, played second by second to `seconds`.
client::PlaybackFeed* judged_feed(int seconds) {
    auto t = client::make_scenario_timeline("default", testing::at_seconds(0),
                                            {{"partitions.conf", testing::sim_default_intent()}});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    if (!t.ok()) return nullptr;
    auto* feed = new client::PlaybackFeed(std::move(*t));
    for (int s = 0; s <= seconds; ++s) feed->seek(std::chrono::seconds(s));
    return feed;
}

void click_row(QAbstractItemView* view, int row) {
    const QRect r = view->visualRect(view->model()->index(row, 0));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
}

void activate_row(QAbstractItemView* view, int row) {
    view->setFocus();
    view->setCurrentIndex(view->model()->index(row, 0));
    QTest::keyClick(view, Qt::Key_Return);
}

TEST(PartitionsPanel, PlayedAgainstAnIntentShowsMembersDifferencesAndFindings) {
    auto* feed = judged_feed(0);
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    for (int s = 0; s <= 60; ++s) feed->seek(std::chrono::seconds(s));
    const SnapshotPtr snap = window.models().snapshot();
    ASSERT_TRUE(snap && snap->partitions);

    QTest::keyClick(&window, Qt::Key_6, Qt::ControlModifier);
    PartitionsPanel* panel = window.partitions_panel();
    ASSERT_EQ(window.tabs()->currentWidget(), panel);
    auto* list = panel->list()->view();
    ASSERT_EQ(list->model()->rowCount(), static_cast<int>(snap->partitions->partitions.size()));
    EXPECT_TRUE(panel->intent_label()->text().startsWith(
        QStringLiteral("Intent: ") + QString::fromStdString(testing::sim_default_intent())))
        << panel->intent_label()->text().toStdString();
    EXPECT_TRUE(panel->intent_label()->text().contains(QStringLiteral("no port has GUID")));

    // The first partition that differs is shown first: 0x0002, which the file does not define.
    const int two = row_of(list, List::PKeyColumn, QStringLiteral("0x0002"));
    ASSERT_GE(two, 0);
    EXPECT_EQ(list->currentIndex().row(), two);
    EXPECT_TRUE(panel->title_label()->text().contains(QStringLiteral("not in partitions.conf")));
    EXPECT_TRUE(panel->title_label()->text().contains(QStringLiteral("2 differ from the intent")));

    // 0x0003 chosen with the mouse: its two ports, both wrong, both highlighted.
    const int three = row_of(list, List::PKeyColumn, QStringLiteral("0x0003"));
    ASSERT_GE(three, 0);
    EXPECT_EQ(cell(list, three, List::NameColumn), QStringLiteral("Three"));
    EXPECT_EQ(cell(list, three, List::IntentColumn), QStringLiteral("2/0"));
    EXPECT_EQ(cell(list, three, List::SmaColumn), QStringLiteral("0/1"));
    EXPECT_EQ(cell(list, three, List::DiffersColumn), QStringLiteral("2"));
    EXPECT_EQ(cell(list, three, List::SmaColumn, List::DiffersFromIntentRole),
              QStringLiteral("true"));
    EXPECT_EQ(cell(list, three, List::FindingsColumn), QStringLiteral("2"));
    click_row(list, three);
    EXPECT_EQ(window.models().current_partition(), 0x0003);
    auto* members = panel->members()->view();
    ASSERT_EQ(members->model()->rowCount(), 2);
    EXPECT_EQ(cell(members, 0, Members::PortColumn), QStringLiteral("node01 HCA-1:1"));
    EXPECT_EQ(cell(members, 0, Members::IntentColumn), QStringLiteral("full"));
    EXPECT_EQ(cell(members, 0, Members::SmaColumn), QStringLiteral("limited"));
    EXPECT_EQ(cell(members, 0, Members::DifferenceColumn), QStringLiteral("mismatch"));
    EXPECT_EQ(cell(members, 0, Members::SmaColumn, Members::ComparedRole), QStringLiteral("true"));
    EXPECT_EQ(cell(members, 0, Members::SmColumn, Members::ComparedRole), QStringLiteral("false"));
    EXPECT_EQ(members->model()->index(0, Members::DifferenceColumn).data(Qt::BackgroundRole),
              QVariant(models::difference_cell(MemberDifference::mismatch)));
    EXPECT_EQ(cell(members, 1, Members::PortColumn), QStringLiteral("node02 HCA-1:1"));
    EXPECT_EQ(cell(members, 1, Members::DifferenceColumn), QStringLiteral("missing"));
    EXPECT_EQ(members->model()->index(1, Members::PortColumn).data(Qt::BackgroundRole),
              QVariant(models::difference_background(MemberDifference::missing)));
    EXPECT_TRUE(panel->title_label()->text().contains(QStringLiteral("Three")));
    EXPECT_TRUE(panel->title_label()->text().contains(QStringLiteral("(in partitions.conf)")));

    // The partition's own findings, no others.
    auto* findings = panel->findings_view();
    EXPECT_TRUE(findings->isVisible());
    QStringList rules;
    for (int r = 0; r < findings->model()->rowCount(); ++r)
        rules << cell(findings, r, models::FindingsModel::RuleColumn);
    rules.sort();
    EXPECT_EQ(rules, (QStringList{QStringLiteral("partition.member_missing"),
                                  QStringLiteral("partition.membership_mismatch")}));

    // Filtered by P_Key, however it is written.
    QTest::keyClicks(panel->list()->filter_edit(), QStringLiteral("0x8003"));
    ASSERT_EQ(list->model()->rowCount(), 1);
    EXPECT_EQ(cell(list, 0, List::PKeyColumn), QStringLiteral("0x0003"));
    panel->list()->filter_edit()->clear();
    EXPECT_EQ(list->model()->rowCount(), static_cast<int>(snap->partitions->partitions.size()));

    // A member port activated: that port in the fabric view.
    activate_row(members, 1);
    EXPECT_EQ(window.tabs()->currentWidget(), window.fabric_panel());
    EXPECT_EQ(window.models().current_port(), (PortRef{"mlx5_1", 1}));
    const QModelIndex current = window.fabric_panel()->tree()->currentIndex();
    EXPECT_EQ(current.data(models::PortTreeModel::DeviceRole).toString(), QStringLiteral("mlx5_1"));
}

// The window splits its height between the findings and the tabs by the tabs' size hints: a
// Partitions tab asking for more than the others would shrink the findings on every tab.
TEST(PartitionsPanel, TakesNoRoomFromTheFindings) {
    auto* feed = judged_feed(60);
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    window.start();
    feed->pause();
    window.show_partition(0x0003);
    int others = 0;
    for (int i = 0; i < window.tabs()->count(); ++i) {
        if (window.tabs()->widget(i) != window.partitions_panel())
            others = std::max(others, window.tabs()->widget(i)->sizeHint().height());
    }
    EXPECT_LE(window.partitions_panel()->sizeHint().height(), others);
}

TEST(PartitionsPanel, AFindingAboutAPartitionOpensIt) {
    auto* feed = judged_feed(60);
    ASSERT_NE(feed, nullptr);
    MainWindow window(feed);
    window.show();
    window.start();  // delivers the snapshot at the position reached
    feed->pause();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* findings = window.findings_panel()->table()->view();
    const int missing = row_of(findings, models::FindingsModel::RuleColumn,
                               QStringLiteral("partition.member_missing"));
    ASSERT_GE(missing, 0);
    EXPECT_EQ(cell(findings, missing, models::FindingsModel::SubjectColumn),
              QStringLiteral("pkey 0x0003"));
    activate_row(findings, missing);
    EXPECT_EQ(window.tabs()->currentWidget(), window.partitions_panel());
    EXPECT_EQ(window.models().current_partition(), 0x0003);
    auto* list = window.partitions_panel()->list()->view();
    EXPECT_EQ(cell(list, list->currentIndex().row(), List::PKeyColumn), QStringLiteral("0x0003"));
}

// A daemon: the change feed carries no partitions, so the tab reads /api/v1/partitions; only
// while it is shown.
TEST(PartitionsPanel, ADaemonsPartitionsAreReadWhileTheTabIsShown) {
    const SnapshotPtr snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    testing::FakeDaemon daemon;
    ASSERT_TRUE(daemon.listen());
    uint64_t sequence = 9;
    daemon.handlers["/api/v1/changes"] = [&](const QByteArray& target) {
        json j{{"instance", "run-1"},
               {"sequence", sequence},
               {"time", "2026-12-02T10:01:00.000Z"},
               {"full", target.endsWith("since=0")},
               {"devices", json::array()}};
        if (target.endsWith("since=0")) j["findings"] = snap->findings;
        return QByteArray::fromStdString(j.dump());
    };
    // The port a finding names is watched; its counters do not matter here.
    daemon.routes["/api/v1/counters"] = R"({"ports": []})";
    daemon.handlers["/api/v1/partitions"] = [&](const QByteArray& target) {
        std::optional<uint16_t> pkey;
        if (target.contains("pkey="))
            pkey = parse_pkey(target.mid(target.indexOf("pkey=") + 5).toStdString()).value();
        json j = codec::partitions_to_json(*snap->partitions, pkey);
        j["sequence"] = sequence;
        return QByteArray::fromStdString(j.dump());
    };
    client::ApiFeedOptions options;
    options.interval = std::chrono::milliseconds(20);
    auto* feed = new client::ApiFeed(QUrl(daemon.url()), options);
    MainWindow window(feed);
    window.show();
    QSignalSpy deltas(feed, &client::SnapshotFeed::deltaReady);
    window.start();
    while (deltas.count() < 3) ASSERT_TRUE(deltas.wait(5000));
    auto asked = [&] {
        return std::count_if(daemon.targets.begin(), daemon.targets.end(), [](const QByteArray& t) {
            return t.startsWith("/api/v1/partitions");
        });
    };
    EXPECT_EQ(asked(), 0);
    EXPECT_TRUE(window.partitions_panel()->intent_label()->text().startsWith(
        QStringLiteral("No partitions to show yet")));

    QSignalSpy ready(feed, &client::SnapshotFeed::partitionsReady);
    window.tabs()->setCurrentWidget(window.partitions_panel());
    auto* members = window.partitions_panel()->members()->view();
    while (members->model()->rowCount() == 0) ASSERT_TRUE(ready.wait(5000));
    // The list, then the first partition that differs, 0x0002, asked for by its P_Key.
    EXPECT_TRUE(daemon.targets.contains("/api/v1/partitions"));
    EXPECT_TRUE(daemon.targets.contains("/api/v1/partitions?pkey=0x0002"));
    EXPECT_EQ(window.models().current_partition(), 0x0002);
    EXPECT_EQ(members->model()->rowCount(), 2);
    EXPECT_EQ(cell(members, 0, Members::DifferenceColumn), QStringLiteral("unexpected"));
    EXPECT_EQ(window.partitions_panel()->findings_view()->model()->rowCount(), 1);

    // Choosing another partition reads its members at the next poll.
    auto* list = window.partitions_panel()->list()->view();
    click_row(list, row_of(list, List::PKeyColumn, QStringLiteral("0x0003")));
    EXPECT_EQ(members->model()->rowCount(), 0) << "not the last partition's members";
    EXPECT_TRUE(
        window.partitions_panel()->title_label()->text().contains(QStringLiteral("reading")));
    while (members->model()->rowCount() == 0) ASSERT_TRUE(ready.wait(5000));
    EXPECT_EQ(cell(members, 0, Members::DifferenceColumn), QStringLiteral("mismatch"));

    // Hidden: read no more, even as the daemon moves on.
    window.tabs()->setCurrentWidget(window.fabric_panel());
    const auto before = asked();
    ++sequence;
    deltas.clear();
    while (deltas.count() < 3) ASSERT_TRUE(deltas.wait(5000));
    EXPECT_EQ(asked(), before);
}

}  // namespace
}  // namespace rdmadiag::gui::widgets
