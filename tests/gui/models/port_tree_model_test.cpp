#include "gui/models/port_tree_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "tests/gui/fat_tree_snapshot.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

TEST(PortTreeModel, GroupsThenNodesThenPortsWithWorstSeverityBadges) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::trouble_snapshot();
    model.set_snapshot(s);
    model.set_findings(s.findings);
    // Both adapters are channel adapters (a CA and an RNIC): one group.
    ASSERT_EQ(model.rowCount(), 1);
    const QModelIndex hcas = model.index(0, 0);
    EXPECT_EQ(hcas.data().toString(), QStringLiteral("HCAs (2)"));
    ASSERT_EQ(model.rowCount(hcas), 2);
    const QModelIndex cxgb = model.index(0, 0, hcas);
    const QModelIndex mlx = model.index(1, 0, hcas);
    EXPECT_EQ(cxgb.data(PortTreeModel::DeviceRole).toString(), QStringLiteral("cxgb4_0"));
    EXPECT_EQ(mlx.siblingAtColumn(PortTreeModel::KeyColumn).data().toString(),
              QStringLiteral("mlx5_0"));
    ASSERT_EQ(model.rowCount(mlx), 1);
    const QModelIndex port = model.index(0, 0, mlx);
    EXPECT_EQ(port.data().toString(), QStringLiteral("port 1"));
    EXPECT_EQ(port.data(PortTreeModel::PortRefRole).toString(), QStringLiteral("mlx5_0:1"));
    EXPECT_EQ(model.index(0, PortTreeModel::StateColumn, mlx).data().toString(),
              QStringLiteral("ACTIVE"));
    // The port has the stale cache (warning); the device also has the stuck MR (critical), and
    // the group covers both adapters' findings.
    EXPECT_EQ(model.index(0, PortTreeModel::HealthColumn, mlx).data().toString(),
              QStringLiteral("warning (1)"));
    EXPECT_EQ(mlx.siblingAtColumn(PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("critical (2)"));
    EXPECT_EQ(mlx.siblingAtColumn(PortTreeModel::HealthColumn)
                  .data(PortTreeModel::WorstSeverityRole)
                  .toInt(),
              static_cast<int>(Severity::critical));
    EXPECT_EQ(hcas.siblingAtColumn(PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("critical (3)"));
    EXPECT_EQ(model.parent(port), mlx);
    EXPECT_EQ(model.parent(mlx), hcas);
    EXPECT_EQ(model.index_of(PortRef{"mlx5_0", 1}), port);
    EXPECT_EQ(model.port_at(port), (PortRef{"mlx5_0", 1}));
    EXPECT_FALSE(model.port_at(mlx).has_value());
    EXPECT_FALSE(model.index_of(PortRef{"mlx5_9", 1}).isValid());
}

TEST(PortTreeModel, SameShapeKeepsIndexesOtherShapeResets) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::trouble_snapshot();
    model.set_snapshot(s);
    model.set_findings(s.findings);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    s.findings.clear();
    model.set_snapshot(s);
    model.set_findings(s.findings);
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(model.index_of_device("mlx5_0").siblingAtColumn(PortTreeModel::HealthColumn).data(),
              QStringLiteral("ok"));
    s.devices.pop_back();
    model.set_snapshot(s);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.device_count(), 1u);
}

TEST(PortTreeModel, RecordedApiAnswer) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::load_api_fixture("default-70s.json"));
    // cxgb4_0, mlx5_0, mlx5_1, mlx5_2, one port each.
    ASSERT_EQ(model.device_count(), 4u);
    const QModelIndex mlx5_2 = model.index_of_device("mlx5_2");
    ASSERT_TRUE(mlx5_2.isValid());
    EXPECT_EQ(model.rowCount(mlx5_2), 1);
    EXPECT_EQ(model.index(0, PortTreeModel::RateColumn, mlx5_2).data().toString(),
              QStringLiteral("25 Gb/sec (1X EDR)"));
}

TEST(PortTreeModel, SubnetNodesAreNamedByDescriptionAndGroupedByType) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::fat_tree_snapshot({4, 2, 3, 2}));
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex switches = model.index(0, 0);
    const QModelIndex hcas = model.index(1, 0);
    EXPECT_EQ(switches.data().toString(), QStringLiteral("Switches (6)"));
    EXPECT_EQ(hcas.data().toString(), QStringLiteral("HCAs (12)"));
    // By name within a group: the leaves, then the spines.
    EXPECT_EQ(model.index(0, 0, switches).data().toString(), QStringLiteral("Leaf001"));
    EXPECT_EQ(model.index(5, 0, switches).data().toString(), QStringLiteral("Spine02"));
    const QModelIndex leaf1 = model.index(0, 0, switches);
    EXPECT_EQ(leaf1.siblingAtColumn(PortTreeModel::KeyColumn).data().toString(),
              QStringLiteral("guid:0x0002c90300100001"));
    EXPECT_EQ(leaf1.siblingAtColumn(PortTreeModel::LidColumn).data().toString(),
              QStringLiteral("1"));
    EXPECT_TRUE(
        leaf1.data(Qt::ToolTipRole).toString().contains(QStringLiteral("guid:0x0002c90300100001")));
    EXPECT_EQ(model.rowCount(leaf1), 3 * 2 + 2);
    const QModelIndex node7 = model.index(6, 0, hcas);
    EXPECT_EQ(node7.data().toString(), QStringLiteral("node0007 HCA-1"));
    EXPECT_EQ(model.index(1, PortTreeModel::RateColumn, node7).data().toString(),
              QStringLiteral("200 Gb/sec (4X HDR)"));
}

TEST(PortTreeModel, ChangedDeviceUpdatesItsRowsWithoutAReset) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::fat_tree_snapshot({4, 2, 3, 2});
    model.set_snapshot(s);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const std::string name = testing::guid_name(0x0c42a10300000005ULL);
    auto& dev = s.devices[static_cast<size_t>(
        std::find_if(s.devices.begin(), s.devices.end(),
                     [&](const auto& d) { return d.info.device == name; }) -
        s.devices.begin())];
    dev.ports[1].info.state = PortState::down;
    model.update_devices(s, {name});
    EXPECT_EQ(resets.count(), 0);
    ASSERT_EQ(changed.count(), 2);  // the node's row and its ports' rows
    const QModelIndex port2 = model.index_of(PortRef{name, 2});
    EXPECT_EQ(port2.siblingAtColumn(PortTreeModel::StateColumn).data().toString(),
              QStringLiteral("DOWN"));
    // A finding on one port lights that port, its node and its group, and only their rows.
    Finding f;
    f.rule = "pkey.cache_stale";
    f.severity = Severity::warning;
    f.subject.device = name;
    f.subject.port = 2;
    changed.clear();
    model.set_findings({f});
    EXPECT_EQ(changed.count(), 3);
    EXPECT_EQ(port2.siblingAtColumn(PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("warning (1)"));
    EXPECT_EQ(model.index(1, PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("warning (1)"));
    model.set_findings({});
    EXPECT_EQ(port2.siblingAtColumn(PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("ok"));
    // A node that goes away reshapes the tree.
    s.devices.erase(s.devices.begin());
    model.update_devices(s, {name});
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.device_count(), s.devices.size());
}

TEST(PortTreeModel, TwelveThousandPortsUpdateOneDeviceInPlace) {
    PortTreeModel model;
    Snapshot s = testing::fat_tree_snapshot();
    model.set_snapshot(s);
    EXPECT_EQ(model.device_count(), 1664u);
    EXPECT_EQ(model.port_count(), 12288u);
    const std::string name = testing::guid_name(0x0c42a10300000300ULL);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    for (int i = 0; i < 100; ++i) model.update_devices(s, {name});
    // A device's update changes its rows in place: the tree is never rebuilt for it (speed is
    // measured by scripts/bench-gui-scale, not asserted here).
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(model.port_count(), 12288u);
}

}  // namespace
}  // namespace rdmadiag::gui::models
