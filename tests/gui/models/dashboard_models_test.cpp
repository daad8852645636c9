#include "gui/models/dashboard_models.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "gui/client/engine_timeline.hpp"
#include "tests/gui/fat_tree_snapshot.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

void test_all(DashboardModels& m, std::vector<std::unique_ptr<QAbstractItemModelTester>>& testers) {
    for (QAbstractItemModel* model : std::initializer_list<QAbstractItemModel*>{
             &m.findings, &m.ports, &m.pkeys, &m.counters, &m.events, &m.mrs}) {
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::Fatal));
    }
}

TEST(DashboardModels, RecordedApiAnswersOneAfterAnother) {
    DashboardModels m;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    test_all(m, testers);
    for (const char* name :
         {"pkey-change-missed-event-60s.json", "mr-xprtrdma-stuck-30s.json", "default-70s.json"}) {
        auto s = std::make_shared<const Snapshot>(testing::load_api_fixture(name));
        m.apply(s);
        EXPECT_EQ(m.ports.device_count(), s->devices.size()) << name;
        EXPECT_EQ(m.findings.rowCount(), static_cast<int>(s->findings.size())) << name;
        EXPECT_EQ(m.events.rowCount(), static_cast<int>(s->events.size())) << name;
        EXPECT_EQ(m.mrs.rowCount(), static_cast<int>(s->mrs.mrs.size())) << name;
        ASSERT_TRUE(m.current_port().has_value()) << name;
        EXPECT_NE(s->find_port(*m.current_port()), nullptr) << name;
    }
}

TEST(DashboardModels, ScenarioPlaybackBuildsHistoryAndTheLastChange) {
    auto t = client::make_scenario_timeline("default", testing::at_seconds(0));
    ASSERT_TRUE(t.ok());
    DashboardModels m;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    test_all(m, testers);
    for (int s = 0; s <= 70; ++s) m.apply((*t)->seek(std::chrono::seconds(s)));
    const PortRef port{"mlx5_0", 1};
    m.select_port(port);
    // 0x8004 added at 20s, 0x8002 moved from 2 to 9 at 60s: the engine's last diff is the move,
    // and the P_Key table shows it; both changes are marked for the chart.
    const auto& diff = m.snapshot()->find_port(port)->pkeys.last_diff;
    ASSERT_TRUE(diff.has_value());
    ASSERT_EQ(diff->changes.size(), 1u);
    EXPECT_EQ(diff->changes[0].kind, PKeyChangeKind::moved);
    EXPECT_EQ(diff->changes[0].index, 9);
    int moved_rows = 0;
    for (int r = 0; r < m.pkeys.rowCount(); ++r) {
        const QString kind = m.pkeys.index(r, 0).data(PKeyTableModel::ChangeKindRole).toString();
        if (kind.isEmpty()) continue;
        EXPECT_EQ(kind, QStringLiteral("moved"));
        EXPECT_EQ(m.pkeys.index(r, PKeyTableModel::IndexColumn).data().toInt(), 9);
        ++moved_rows;
    }
    EXPECT_EQ(moved_rows, 1);
    const auto marks = m.pkey_changes.change_times(port);
    ASSERT_EQ(marks.size(), 2u);
    EXPECT_EQ(marks.back(), diff->time);
    const auto* violations = m.history.series(port, "p_key_violations");
    ASSERT_NE(violations, nullptr);
    EXPECT_EQ(violations->size(), 71u);
    EXPECT_EQ(violations->back().total, 21u);  // 12 at 64s + 9 at 70s

    // Going back in time (a seek) starts the history over.
    m.apply((*t)->seek(std::chrono::seconds(5)));
    EXPECT_EQ(m.history.series(port, "p_key_violations")->size(), 1u);
    EXPECT_TRUE(m.pkey_changes.change_times(port).empty());
}

TEST(DashboardModels, ChangeFeedDeltasTouchOnlyWhatChangedAtTwelveThousandPorts) {
    DashboardModels m;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    test_all(m, testers);
    const Snapshot fabric = testing::fat_tree_snapshot();
    m.apply(std::make_shared<const Snapshot>(fabric));
    ASSERT_EQ(m.ports.port_count(), 12288u);
    const std::string host = testing::guid_name(0x0c42a10300000300ULL);
    const PortRef port{host, 1};
    m.select_port(port);
    QSignalSpy resets(&m.ports, &QAbstractItemModel::modelReset);
    QSignalSpy rows(&m.ports, &QAbstractItemModel::dataChanged);

    // Nothing changed: the clock moves, no row does.
    SnapshotDelta quiet;
    quiet.instance = "run-1";
    quiet.sequence = 2;
    quiet.time = fabric.time + std::chrono::seconds(1);
    DeltaEffect effect = m.apply_delta(quiet);
    EXPECT_TRUE(effect.changed_devices.empty());
    EXPECT_EQ(rows.count(), 0);
    EXPECT_EQ(m.snapshot()->sequence, 2u);

    // 0x8010 appears at index 5 of one host's port and a finding names the port.
    SnapshotDelta change = quiet;
    change.sequence = 3;
    DeviceSnapshot d = *fabric.find_device(host);
    d.ports[0].pkeys.views[0].table.keys = {0xffff, 0x8001, 0x8002, 0, 0, 0x8010};
    d.ports[0].pkeys.views[0].generation = 2;
    change.devices.push_back(d);
    Finding f;
    f.rule = "pkey.added";
    f.severity = Severity::info;
    f.subject.device = host;
    f.subject.port = 1;
    f.subject.index = 5;
    f.subject.pkey = 0x8010;
    change.findings = std::vector<Finding>{f};
    effect = m.apply_delta(change);
    EXPECT_EQ(effect.changed_devices, std::vector<std::string>{host});
    EXPECT_EQ(resets.count(), 0);
    bool shown = false;
    for (int r = 0; r < m.pkeys.rowCount(); ++r) {
        shown =
            shown ||
            m.pkeys.index(r, PKeyTableModel::SmaColumn).data(PKeyTableModel::RawKeyRole).toInt() ==
                0x8010;
    }
    EXPECT_TRUE(shown) << "0x8010 is not in the selected port's P_Key table";
    ASSERT_EQ(m.findings.rowCount(), 1);
    EXPECT_EQ(m.findings.index(0, FindingsModel::SubjectColumn).data().toString(),
              QStringLiteral("node0768 HCA-1 port 1 index 5 pkey 0x8010"));
    EXPECT_EQ(m.ports.index_of(port).siblingAtColumn(PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("info (1)"));

    // Counters come for the watched port alone and build its history.
    CounterState c;
    c.name = "symbol_error";
    c.total = 4;
    m.set_port_counters(port, {c}, quiet.time);
    ASSERT_EQ(m.counters.rowCount(), 1);
    ASSERT_NE(m.history.series(port, "symbol_error"), nullptr);
    EXPECT_EQ(m.history.series(port, "symbol_error")->back().total, 4u);
    // A later delta for the device keeps the counters the feed does not carry.
    change.sequence = 4;
    change.findings.reset();
    m.apply_delta(change);
    EXPECT_EQ(m.counters.rowCount(), 1);
}

TEST(DashboardModels, DefaultPortPrefersAStaleCache) {
    const Snapshot s = testing::trouble_snapshot();
    EXPECT_EQ(default_port(s), (PortRef{"mlx5_0", 1}));
    Snapshot quiet = s;
    quiet.findings.clear();
    // cxgb4_0 (iWARP) comes first by name but has no P_Key table.
    EXPECT_EQ(default_port(quiet), (PortRef{"mlx5_0", 1}));
    quiet.devices[1].ports[0].pkeys.views.clear();
    EXPECT_EQ(default_port(quiet), (PortRef{"cxgb4_0", 1}));
    Snapshot none;
    EXPECT_FALSE(default_port(none).has_value());
}

}  // namespace
}  // namespace rdmadiag::gui::models
