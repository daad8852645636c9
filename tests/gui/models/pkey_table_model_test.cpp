#include "gui/models/pkey_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "gui/models/display_text.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

const PortSnapshot& port_of(const Snapshot& s) {
    return *s.find_port(PortRef{"mlx5_0", 1});
}

TEST(PKeyTableModel, EveryViewSideBySideWithDifferencesFromTheDevice) {
    PKeyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::trouble_snapshot();
    s.devices[1].ports[0].pkeys.last_diff.reset();
    model.set_port(&port_of(s), s.time);
    // Slots 0..4 hold keys in some view; slot 5 is empty everywhere and, with no change there,
    // hidden.
    ASSERT_EQ(model.rowCount(), 5);
    EXPECT_EQ(model.index(0, PKeyTableModel::DeviceColumn).data().toString(),
              QStringLiteral("0xffff full"));
    EXPECT_EQ(model.index(3, PKeyTableModel::DeviceColumn).data().toString(),
              QStringLiteral("0x0003 limited"));
    EXPECT_EQ(model.index(4, PKeyTableModel::SmaColumn).data().toString(),
              QString());  // sma not read
    EXPECT_EQ(model.index(4, PKeyTableModel::CacheColumn).data().toString(),
              QStringLiteral("(empty)"));
    EXPECT_TRUE(
        model.index(4, PKeyTableModel::CacheColumn).data(PKeyTableModel::DiffersRole).toBool());
    EXPECT_FALSE(
        model.index(3, PKeyTableModel::CacheColumn).data(PKeyTableModel::DiffersRole).toBool());
    EXPECT_FALSE(
        model.index(4, PKeyTableModel::SmaColumn).data(PKeyTableModel::DiffersRole).toBool());
    EXPECT_EQ(model.index(4, PKeyTableModel::DeviceColumn).data(PKeyTableModel::RawKeyRole).toInt(),
              0x8004);
    EXPECT_EQ(model.headerData(PKeyTableModel::DeviceColumn, Qt::Horizontal).toString(),
              QStringLiteral("device\ngen 2, 50s ago"));
    EXPECT_EQ(model.headerData(PKeyTableModel::SmaColumn, Qt::Horizontal).toString(),
              QStringLiteral("sma\nnot read"));
    EXPECT_EQ(model.cache_judgement(), CacheJudgement::stale);
    EXPECT_EQ(model.cache_summary(),
              QStringLiteral("Cache STALE since %1 (50s ago): differs from device with no "
                             "PKEY_CHANGE delivered. Consumers that rely on PKEY_CHANGE have not "
                             "reloaded.")
                  .arg(clock_text(testing::at_seconds(10))));

    model.set_show_empty(true);
    EXPECT_EQ(model.rowCount(), 6);
}

// The engine's last diff, as the snapshot carries it, is what the change column shows.
TEST(PKeyTableModel, LastChangeHighlightedByKind) {
    PKeyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::trouble_snapshot();
    model.set_port(&port_of(s), s.time);
    // Index 5 is empty now but kept: its key was removed by the last change.
    ASSERT_EQ(model.rowCount(), 6);
    EXPECT_EQ(model.index(4, PKeyTableModel::ChangeColumn).data().toString(),
              QStringLiteral("added 0x8004"));
    EXPECT_EQ(model.index(4, 0).data(PKeyTableModel::ChangeKindRole).toString(),
              QStringLiteral("added"));
    EXPECT_EQ(model.index(5, PKeyTableModel::ChangeColumn).data().toString(),
              QStringLiteral("removed 0x8005"));
    EXPECT_TRUE(model.index(5, PKeyTableModel::ChangeColumn).data(Qt::BackgroundRole).isValid());
    EXPECT_EQ(model.headerData(PKeyTableModel::ChangeColumn, Qt::Horizontal).toString(),
              QStringLiteral("Last change\ngen 1 -> 2, 50s ago"));

    // Nothing is diffed by the model: without the engine's diff there is no last change.
    Snapshot quiet = s;
    quiet.devices[1].ports[0].pkeys.last_diff.reset();
    model.set_port(&port_of(quiet), quiet.time);
    ASSERT_EQ(model.rowCount(), 5);
    for (int r = 0; r < model.rowCount(); ++r) {
        EXPECT_EQ(model.index(r, PKeyTableModel::ChangeColumn).data().toString(), QString());
    }
    EXPECT_EQ(model.headerData(PKeyTableModel::ChangeColumn, Qt::Horizontal).toString(),
              QStringLiteral("Last change\nnone seen"));
}

// The cache line says what the engine judged, not what the tables look like: the same differing
// tables read "pending" within the grace period and "not judged" where no source watches events.
TEST(PKeyTableModel, CacheLineFollowsTheEnginesJudgement) {
    PKeyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Snapshot s = testing::trouble_snapshot();
    auto& pkeys = s.devices[1].ports[0].pkeys;
    pkeys.cache = CacheJudgement::pending;
    pkeys.cache_note = "differs from device, within the grace period";
    pkeys.stale_since.reset();
    model.set_port(&port_of(s), s.time);
    EXPECT_EQ(model.cache_judgement(), CacheJudgement::pending);
    EXPECT_EQ(model.cache_summary(),
              QStringLiteral("Cache pending: differs from device, within the grace period."));
    pkeys.cache = CacheJudgement::not_watched;
    pkeys.cache_note =
        "no source watches async events of mlx5_0:1: the cache cannot be judged here";
    model.set_port(&port_of(s), s.time);
    EXPECT_EQ(model.cache_summary(),
              QStringLiteral("Cache not judged: no source watches async events of mlx5_0:1: the "
                             "cache cannot be judged here."));
    pkeys.cache = CacheJudgement::coherent;
    pkeys.cache_note = "cache matches device generation 2";
    model.set_port(&port_of(s), s.time);
    EXPECT_EQ(model.cache_summary(),
              QStringLiteral("Cache coherent: cache matches device generation 2."));
}

TEST(PKeyTableModel, NoPortAndOtherPort) {
    PKeyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_port(nullptr, {});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.cache_summary(), QStringLiteral("No port selected."));
    const Snapshot s = testing::trouble_snapshot();
    model.set_port(&port_of(s), s.time);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.set_port(&port_of(s), s.time);
    EXPECT_EQ(resets.count(), 0);
    model.set_port(s.find_port(PortRef{"cxgb4_0", 1}), s.time);
    EXPECT_EQ(model.rowCount(), 0);  // iWARP: no P_Key table
    EXPECT_EQ(model.cache_summary(), QStringLiteral("No device view of this port's table yet."));
}

TEST(PKeyTableModel, RecordedApiAnswer) {
    PKeyTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const Snapshot s = testing::load_api_fixture("pkey-change-missed-event-60s.json");
    const PortSnapshot* p = s.find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(p, nullptr);
    model.set_port(p, s.time);
    ASSERT_EQ(model.rowCount(), 5);  // 0xffff 0x8001 0x8002 0x0003 and the new 0x8004
    EXPECT_EQ(model.index(4, PKeyTableModel::DeviceColumn).data().toString(),
              QStringLiteral("0x8004 full"));
    // The answer carries the engine's judgement and diff; the model shows them.
    EXPECT_EQ(model.cache_judgement(), CacheJudgement::stale);
    EXPECT_TRUE(model.cache_summary().startsWith(QStringLiteral("Cache STALE since")));
    EXPECT_EQ(model.index(4, PKeyTableModel::ChangeColumn).data().toString(),
              QStringLiteral("added 0x8004"));
}

}  // namespace
}  // namespace rdmadiag::gui::models
