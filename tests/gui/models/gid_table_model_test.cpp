#include "gui/models/gid_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

GidViewState view(GidView v, std::vector<GidEntry> entries) {
    GidViewState s;
    s.view = v;
    s.table.entries = std::move(entries);
    s.generation = 2;
    s.changed = testing::at_seconds(10);
    s.confirmed = testing::at_seconds(60);
    s.source = v == GidView::cache ? "sysfs" : "mad";
    return s;
}

GidEntry ib(uint16_t index, const char* gid) {
    return GidEntry{index, *parse_gid(gid), GidType::ib, {}};
}

GidEntry roce(uint16_t index, const char* gid, const char* ndev) {
    return GidEntry{index, *parse_gid(gid), GidType::roce_v2, ndev};
}

TEST(GidTableModel, CacheBesideThePortWithTheIndexesThatDiffer) {
    GidTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    PortSnapshot p;
    p.ref = PortRef{"mlx5_0", 2};
    PortGidState g;
    g.views = {view(GidView::cache, {ib(0, "fe80::2:c903:0:1235")}),
               view(GidView::sma, {ib(0, "fec0::2:c903:0:1235")}),
               view(GidView::sm, {ib(0, "fec0::2:c903:0:1235")})};
    g.coherence = GidCoherence::stale;
    g.note = "differs since 00:00:10";
    p.gids = std::move(g);
    model.set_port(&p, testing::at_seconds(60));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, GidTableModel::CacheColumn).data().toString(),
              QStringLiteral("fe80:0000:0000:0000:0002:c903:0000:1235"));
    EXPECT_EQ(model.index(0, GidTableModel::SmaColumn).data().toString(),
              QStringLiteral("fec0:0000:0000:0000:0002:c903:0000:1235"));
    EXPECT_TRUE(
        model.index(0, GidTableModel::CacheColumn).data(GidTableModel::DiffersRole).toBool());
    EXPECT_FALSE(model.index(0, GidTableModel::SmColumn).data(GidTableModel::DiffersRole).toBool());
    EXPECT_EQ(model.index(0, GidTableModel::StateColumn).data().toString(),
              QStringLiteral("cache differs from the port"));
    EXPECT_TRUE(model.column_used(GidTableModel::SmaColumn));
    EXPECT_FALSE(model.column_used(GidTableModel::NetdevColumn));
    EXPECT_EQ(model.coherence(), GidCoherence::stale);
    EXPECT_TRUE(model.coherence_summary().startsWith(QStringLiteral("GID cache STALE")));
    EXPECT_TRUE(model.coherence_summary().contains(QStringLiteral("GID_CHANGE: 0;")));
    EXPECT_EQ(model.headerData(GidTableModel::SmaColumn, Qt::Horizontal).toString(),
              QStringLiteral("sma\ngen 2, 50s ago"));
}

TEST(GidTableModel, RoceAddressesTheCacheLacksAreRowsOfTheirOwn) {
    GidTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    PortSnapshot p;
    p.ref = PortRef{"rxe0", 1};
    PortGidState g;
    g.views = {view(GidView::cache,
                    {roce(0, "fe80::5054:ff:fe12:3456", "dum0"), roce(1, "2001:db8::9", "dum0")}),
               view(GidView::netdev,
                    {GidEntry{0, *parse_gid("fe80::5054:ff:fe12:3456"), GidType::unknown, "dum0"},
                     GidEntry{1, *parse_gid("::ffff:192.0.2.1"), GidType::unknown, "dum0"}})};
    p.gids = std::move(g);
    model.set_port(&p, testing::at_seconds(60));
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(1, GidTableModel::StateColumn).data().toString(),
              QStringLiteral("address gone from dum0"));
    EXPECT_EQ(model.index(2, GidTableModel::IndexColumn).data().toString(), QStringLiteral("-"));
    EXPECT_TRUE(model.index(2, GidTableModel::StateColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("the cache lacks it")));
    EXPECT_TRUE(model.column_used(GidTableModel::NetdevColumn));
    EXPECT_TRUE(model.column_used(GidTableModel::TypeColumn));
    EXPECT_FALSE(model.column_used(GidTableModel::SmaColumn));

    // The same rows again keep the model's rows (a poll, not a reset).
    model.set_port(&p, testing::at_seconds(70));
    EXPECT_EQ(model.rowCount(), 3);
    model.set_port(nullptr, testing::at_seconds(70));
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.coherence_summary(), QStringLiteral("No port selected."));
}

}  // namespace
}  // namespace rdmadiag::gui::models
