#include "gui/models/event_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

TEST(EventModel, NewestFirstWithEveryField) {
    EventModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::trouble_snapshot();
    model.set_events(s.events);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.index(0, EventModel::TypeColumn).data().toString(),
              QStringLiteral("PKEY_CHANGE"));
    EXPECT_EQ(model.index(0, EventModel::PortColumn).data().toString(), QStringLiteral("1"));
    EXPECT_EQ(model.index(0, EventModel::TimeColumn).data().toString(),
              QStringLiteral("2026-12-02T10:00:08.000Z"));
    EXPECT_EQ(model.index(1, EventModel::TypeColumn).data().toString(), QStringLiteral("QP_FATAL"));
    EXPECT_EQ(model.index(1, EventModel::ElementColumn).data().toString(), QStringLiteral("0x1c5"));
    EXPECT_EQ(model.index(1, EventModel::PortColumn).data().toString(), QString());
    EXPECT_EQ(model.index(1, EventModel::SourceColumn).data().toString(), QStringLiteral("sim"));
    EXPECT_GT(model.index(0, 0).data(EventModel::SortRole).toLongLong(),
              model.index(1, 0).data(EventModel::SortRole).toLongLong());

    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.set_events(s.events);
    EXPECT_EQ(resets.count(), 0);
    auto more = s.events;
    more.push_back(more.back());
    more.back().time += std::chrono::seconds(1);
    model.set_events(more);
    EXPECT_EQ(model.rowCount(), 3);
}

TEST(EventModel, RecordedApiAnswer) {
    EventModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::load_api_fixture("mr-xprtrdma-stuck-30s.json");
    model.set_events(s.events);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, EventModel::TypeColumn).data().toString(), QStringLiteral("QP_FATAL"));
}

}  // namespace
}  // namespace rdmadiag::gui::models
