#include "gui/models/findings_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

using testing::trouble_snapshot;

QString rule_at(const FindingsModel& m, int row) {
    return m.index(row, FindingsModel::RuleColumn).data().toString();
}

TEST(FindingsModel, StaleCachesAndStuckMrsComeFirstThenSeverity) {
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = trouble_snapshot();
    model.set_findings(s.findings, s.time);
    ASSERT_EQ(model.rowCount(), 3);
    // Both priority rules precede a critical view divergence; among them critical first.
    EXPECT_EQ(rule_at(model, 0), QStringLiteral("mr.needs_dereg"));
    EXPECT_EQ(rule_at(model, 1), QStringLiteral("pkey.cache_stale"));
    EXPECT_EQ(rule_at(model, 2), QStringLiteral("pkey.view_divergence"));
    EXPECT_EQ(model.index(0, FindingsModel::SeverityColumn).data().toString(),
              QStringLiteral("critical"));
    EXPECT_EQ(model.index(1, FindingsModel::SubjectColumn).data().toString(),
              QStringLiteral("mlx5_0:1"));
    EXPECT_EQ(model.index(1, FindingsModel::SinceColumn).data().toString(),
              QStringLiteral("10:00:25 (35s)"));
    EXPECT_TRUE(model.index(0, FindingsModel::AdviceColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("deregister")));
    EXPECT_TRUE(model.index(1, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("no PKEY_CHANGE")));
}

TEST(FindingsModel, SameFindingsAgainChangeDataNotRows) {
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = trouble_snapshot();
    model.set_findings(s.findings, s.time);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.set_findings(s.findings, s.time + std::chrono::seconds(5));
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(changes.count(), 1);
    EXPECT_EQ(model.index(1, FindingsModel::SinceColumn).data().toString(),
              QStringLiteral("10:00:25 (40s)"));

    s.findings.pop_back();  // the stale cache healed
    model.set_findings(s.findings, s.time);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.rowCount(), 2);
    model.set_findings({}, s.time);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(FindingsModel, SortRoleOrdersSeverityColumnByRank) {
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = trouble_snapshot();
    model.set_findings(s.findings, s.time);
    const int r0 = model.index(0, 0).data(FindingsModel::SortRole).toInt();
    const int r2 = model.index(2, 0).data(FindingsModel::SortRole).toInt();
    EXPECT_LT(r0, r2);
    EXPECT_EQ(model.index(2, 3).data(FindingsModel::RuleRole).toString(),
              QStringLiteral("pkey.view_divergence"));
}

}  // namespace
}  // namespace rdmadiag::gui::models
