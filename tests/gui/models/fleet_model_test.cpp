#include "gui/models/fleet_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

namespace rdmadiag::gui::models {
namespace {

FleetState fleet() {
    FleetState s;
    FleetHost a{"127.0.0.1:9001", "rdmadiag", true, {{"sim", true}}, {}};
    a.findings.push_back({"mr.needs_dereg", Severity::critical, "mlx5_0", std::nullopt, 1});
    a.findings.push_back({"pkey.cache_stale", Severity::warning, "mlx5_0", 1u, 1});
    FleetHost b{"127.0.0.1:9002", "rdmadiag", true, {{"sim", true}, {"sysfs", false}}, {}};
    FleetHost c{"127.0.0.1:9003", "rdmadiag", false, {}, {}};
    s.hosts = {a, b, c};
    return s;
}

TEST(FleetModel, HostsWithHealthAndTheirFindingsBelow) {
    FleetModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    m.set_state(fleet());
    ASSERT_EQ(m.rowCount(), 3);
    const QModelIndex a = m.index(0, 0);
    EXPECT_EQ(a.data().toString(), QStringLiteral("127.0.0.1:9001"));
    EXPECT_EQ(a.siblingAtColumn(FleetModel::HealthColumn).data().toString(), QStringLiteral("up"));
    EXPECT_EQ(a.siblingAtColumn(FleetModel::FindingsColumn).data().toString(), QStringLiteral("2"));
    EXPECT_EQ(a.siblingAtColumn(FleetModel::WorstColumn).data().toString(),
              QStringLiteral("critical"));
    ASSERT_EQ(m.rowCount(a), 2);
    const QModelIndex stale = m.index(1, 0, a);
    EXPECT_EQ(stale.data().toString(), QStringLiteral("pkey.cache_stale"));
    EXPECT_EQ(stale.siblingAtColumn(FleetModel::FindingsColumn).data().toString(),
              QStringLiteral("mlx5_0:1"));
    EXPECT_EQ(stale.data(FleetModel::InstanceRole).toString(), QStringLiteral("127.0.0.1:9001"));
    EXPECT_EQ(m.parent(stale), a);
    EXPECT_EQ(m.index(1, FleetModel::HealthColumn).data().toString(),
              QStringLiteral("1/2 sources up"));
    EXPECT_EQ(m.index(2, FleetModel::HealthColumn).data().toString(), QStringLiteral("down"));
    EXPECT_EQ(m.index(2, FleetModel::WorstColumn).data().toString(), QStringLiteral("ok"));
}

TEST(FleetModel, SameHostsAndFindingsUpdateInPlace) {
    FleetModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    FleetState s = fleet();
    m.set_state(s);
    QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
    s.hosts[1].sources[1].up = true;
    m.set_state(s);
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(m.index(1, FleetModel::HealthColumn).data().toString(), QStringLiteral("up"));
    s.hosts[0].findings.pop_back();
    m.set_state(s);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(m.rowCount(m.index(0, 0)), 1);
}

}  // namespace
}  // namespace rdmadiag::gui::models
