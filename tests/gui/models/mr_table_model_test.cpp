#include "gui/models/mr_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "gui/models/mr_filter_proxy.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui {
namespace {

TEST(MrTableModel, StuckFirstFlaggedWithTheFindingsAdvice) {
    MrTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::trouble_snapshot());
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, MrTableModel::FlagColumn).data().toString(),
              QStringLiteral("needs deregistration"));
    EXPECT_EQ(model.index(0, MrTableModel::DeviceColumn).data().toString(),
              QStringLiteral("mlx5_0"));
    EXPECT_EQ(model.index(0, MrTableModel::KeyColumn).data().toString(),
              QStringLiteral("0x00011a03"));
    EXPECT_EQ(model.index(0, MrTableModel::StateColumn).data().toString(), QStringLiteral("stuck"));
    EXPECT_EQ(model.index(0, MrTableModel::InStateColumn).data().toString(), QStringLiteral("45s"));
    EXPECT_EQ(model.index(0, MrTableModel::LastOpColumn).data().toString(),
              QStringLiteral("FASTREG MW_BIND_ERR"));
    EXPECT_TRUE(model.index(0, MrTableModel::AdviceColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("On InfiniBand")));
    EXPECT_TRUE(model.index(0, 0).data(MrTableModel::NeedsDeregRole).toBool());
    EXPECT_EQ(model.index(1, MrTableModel::FlagColumn).data().toString(), QString());
    EXPECT_EQ(model.index(1, MrTableModel::TransportColumn).data().toString(),
              QStringLiteral("iwarp"));
}

TEST(MrTableModel, FindingAloneFlagsAnMrTheTableThinksValid) {
    Snapshot s = testing::trouble_snapshot();
    s.mrs.mrs[1].state = MrState::valid;  // the record lags; the rule says otherwise
    MrTableModel model;
    model.set_snapshot(s);
    EXPECT_TRUE(model.index(0, 0).data(MrTableModel::NeedsDeregRole).toBool());
    EXPECT_EQ(model.index(0, MrTableModel::MrColumn).data().toString(), QStringLiteral("17"));
}

TEST(MrFilterProxy, ByStateAndText) {
    MrTableModel model;
    model.set_snapshot(testing::trouble_snapshot());
    MrFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(proxy.rowCount(), 2);
    proxy.set_state_filter(QStringLiteral("stuck"));
    EXPECT_EQ(proxy.rowCount(), 1);
    proxy.set_state_filter(QString::fromLatin1(MrFilterProxy::kFlagged));
    EXPECT_EQ(proxy.rowCount(), 1);
    proxy.set_state_filter(QStringLiteral("deregistered"));
    EXPECT_EQ(proxy.rowCount(), 0);
    proxy.set_state_filter(QString());
    proxy.setFilterFixedString(QStringLiteral("FIO"));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, MrTableModel::MrColumn).data().toString(), QStringLiteral("5"));
}

TEST(MrTableModel, RecordedApiAnswer) {
    MrTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::load_api_fixture("mr-xprtrdma-stuck-30s.json");
    model.set_snapshot(s);
    EXPECT_EQ(model.rowCount(), static_cast<int>(s.mrs.mrs.size()));
}

}  // namespace
}  // namespace rdmadiag::gui
