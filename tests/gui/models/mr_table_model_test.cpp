#include "gui/models/mr_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <algorithm>

#include "gui/models/mr_filter_proxy.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

TEST(MrTableModel, StuckFirstFlaggedWithTheEnginesAdvice) {
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
    // The MR record's advice, not the finding's.
    EXPECT_EQ(model.index(0, MrTableModel::AdviceColumn).data().toString(),
              QStringLiteral("kernel ULP xprtrdma must deregister this MR and allocate a new one"));
    EXPECT_TRUE(model.index(0, 0).data(MrTableModel::NeedsDeregRole).toBool());
    EXPECT_EQ(model.index(1, MrTableModel::FlagColumn).data().toString(), QString());
    EXPECT_EQ(model.index(1, MrTableModel::TransportColumn).data().toString(),
              QStringLiteral("iwarp"));
}

TEST(MrTableModel, FindingAloneFlagsAnMrTheTableThinksValid) {
    Snapshot s = testing::trouble_snapshot();
    s.mrs.mrs[1].state = MrState::valid;  // the record lags; the rule says otherwise
    MrTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(s);
    EXPECT_TRUE(model.index(0, 0).data(MrTableModel::NeedsDeregRole).toBool());
    EXPECT_EQ(model.index(0, MrTableModel::MrColumn).data().toString(), QStringLiteral("17"));
}

TEST(MrFilterProxy, ByStateAndText) {
    MrTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_snapshot(testing::trouble_snapshot());
    MrFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxy_tester(&proxy,
                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
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
    ASSERT_EQ(model.rowCount(), static_cast<int>(s.mrs.mrs.size()));
    // At 30s MR 17 is stuck: flagged first, with the advice the engine put in its record.
    EXPECT_EQ(model.index(0, MrTableModel::MrColumn).data().toString(), QStringLiteral("17"));
    EXPECT_EQ(model.index(0, MrTableModel::FlagColumn).data().toString(),
              QStringLiteral("needs deregistration"));
    ASSERT_FALSE(s.mrs.mrs.empty());
    const auto stuck = std::find_if(s.mrs.mrs.begin(), s.mrs.mrs.end(),
                                    [](const MrRecord& r) { return r.mr == 17; });
    ASSERT_NE(stuck, s.mrs.mrs.end());
    EXPECT_FALSE(stuck->advice.empty());
    EXPECT_EQ(model.index(0, MrTableModel::AdviceColumn).data().toString(),
              QString::fromStdString(stuck->advice));
}

}  // namespace
}  // namespace rdmadiag::gui::models
