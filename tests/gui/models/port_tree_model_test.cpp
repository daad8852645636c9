#include "gui/models/port_tree_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

TEST(PortTreeModel, DevicesThenPortsWithWorstSeverityBadges) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::trouble_snapshot());
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex cxgb = model.index(0, 0);
    const QModelIndex mlx = model.index(1, 0);
    EXPECT_EQ(cxgb.data().toString(), QStringLiteral("cxgb4_0 (iWARP)"));
    EXPECT_EQ(mlx.data().toString(), QStringLiteral("mlx5_0 (InfiniBand)"));
    ASSERT_EQ(model.rowCount(mlx), 1);
    const QModelIndex port = model.index(0, 0, mlx);
    EXPECT_EQ(port.data().toString(), QStringLiteral("port 1"));
    EXPECT_EQ(port.data(PortTreeModel::PortRefRole).toString(), QStringLiteral("mlx5_0:1"));
    EXPECT_EQ(model.index(0, PortTreeModel::StateColumn, mlx).data().toString(),
              QStringLiteral("ACTIVE"));
    // The port has the stale cache (warning); the device also has the stuck MR (critical).
    EXPECT_EQ(model.index(0, PortTreeModel::HealthColumn, mlx).data().toString(),
              QStringLiteral("warning (1)"));
    EXPECT_EQ(model.index(1, PortTreeModel::HealthColumn).data().toString(),
              QStringLiteral("critical (2)"));
    EXPECT_EQ(
        model.index(1, PortTreeModel::HealthColumn).data(PortTreeModel::WorstSeverityRole).toInt(),
        static_cast<int>(Severity::critical));
    EXPECT_EQ(model.parent(port), mlx);
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
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    s.findings.clear();
    model.set_snapshot(s);
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(model.index(1, PortTreeModel::HealthColumn).data().toString(), QStringLiteral("ok"));
    s.devices.pop_back();
    model.set_snapshot(s);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.rowCount(), 1);
}

TEST(PortTreeModel, RecordedApiAnswer) {
    PortTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::load_api_fixture("default-70s.json"));
    // cxgb4_0, mlx5_0, mlx5_1, mlx5_2, one port each.
    ASSERT_EQ(model.rowCount(), 4);
    for (int d = 0; d < 4; ++d) EXPECT_EQ(model.rowCount(model.index(d, 0)), 1);
    EXPECT_EQ(model.index(3, 0).data(PortTreeModel::DeviceRole).toString(),
              QStringLiteral("mlx5_2"));
    EXPECT_EQ(model.index(0, PortTreeModel::RateColumn, model.index(3, 0)).data().toString(),
              QStringLiteral("25 Gb/sec (1X EDR)"));
}

}  // namespace
}  // namespace rdmadiag::gui::models
