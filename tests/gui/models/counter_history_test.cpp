#include "gui/models/counter_history.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "gui/models/counter_table_model.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

Snapshot with_violations(int t, uint64_t total) {
    Snapshot s = testing::trouble_snapshot();
    s.time = testing::at_seconds(t);
    s.devices[1].ports[0].counters[0].total = total;
    s.devices[1].ports[0].counters[0].raw = total;
    return s;
}

TEST(CounterHistory, OnePointPerNewerSnapshotBounded) {
    CounterHistory h(3);
    const PortRef port{"mlx5_0", 1};
    h.add(with_violations(1, 1));
    h.add(with_violations(1, 5));  // same time again: a repeated poll, ignored
    h.add(with_violations(2, 2));
    h.add(with_violations(3, 3));
    h.add(with_violations(4, 4));
    const auto* s = h.series(port, "p_key_violations");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->size(), 3u);
    EXPECT_EQ(s->front(), (CounterPoint{testing::at_seconds(2), 2, 2}));
    EXPECT_EQ(s->back().total, 4u);
    EXPECT_EQ(h.counters(port), std::vector<std::string>{"p_key_violations"});
    EXPECT_TRUE(h.counters(PortRef{"cxgb4_0", 1}).empty());
    EXPECT_EQ(h.series(port, "symbol_error"), nullptr);
    h.clear();
    EXPECT_EQ(h.series(port, "p_key_violations"), nullptr);
    h.add(with_violations(1, 1));  // after clear, older times are accepted again
    EXPECT_NE(h.series(port, "p_key_violations"), nullptr);
}

TEST(CounterTableModel, PortCountersWithNotes) {
    CounterTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::trouble_snapshot();
    auto& c = s.devices[1].ports[0].counters[0];
    c.saturated = true;
    c.wraps = 1;
    model.set_port(&s.devices[1].ports[0], s.time);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, CounterTableModel::NameColumn).data().toString(),
              QStringLiteral("p_key_violations"));
    EXPECT_EQ(model.index(0, CounterTableModel::WidthColumn).data().toString(),
              QStringLiteral("16 bit"));
    EXPECT_EQ(model.index(0, CounterTableModel::NotesColumn).data().toString(),
              QStringLiteral("SATURATED, 1 wrap(s), P_Key"));
    EXPECT_EQ(model.index(0, CounterTableModel::TotalColumn)
                  .data(CounterTableModel::SortRole)
                  .toULongLong(),
              7u);
    model.set_port(nullptr, s.time);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(CounterTableModel, RecordedApiAnswer) {
    CounterTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::load_api_fixture("default-70s.json");
    const PortSnapshot* p = s.find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(p, nullptr);
    model.set_port(p, s.time);
    EXPECT_EQ(model.rowCount(), static_cast<int>(p->counters.size()));
    bool violations = false;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data().toString() == QStringLiteral("p_key_violations")) {
            violations = true;
            EXPECT_EQ(model.index(r, CounterTableModel::TotalColumn).data().toString(),
                      QStringLiteral("21"));
        }
    }
    EXPECT_TRUE(violations);
}

}  // namespace
}  // namespace rdmadiag::gui::models
