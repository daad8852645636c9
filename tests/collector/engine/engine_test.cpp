#include "collector/engine/engine.hpp"

#include "collector/engine/default/default_engine.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine {
namespace {

using test::at;
using test::obs;

TEST(Engine, ClockFollowsObservationsAndNeverGoesBack) {
    Engine e;
    e.consume(obs(10, test::counter("d", 1, "symbol_error", 1)));
    EXPECT_EQ(e.now(), at(10));
    e.consume(obs(5, test::counter("d", 1, "symbol_error", 2)));
    EXPECT_EQ(e.now(), at(10));
    e.advance(at(20));
    EXPECT_EQ(e.now(), at(20));
    e.advance(at(15));
    EXPECT_EQ(e.now(), at(20));
}

TEST(Engine, SnapshotIsRebuiltOnlyAfterChanges) {
    Engine e;
    e.consume(obs(1, test::counter("d", 1, "symbol_error", 1)));
    auto a = e.snapshot();
    auto b = e.snapshot();
    EXPECT_EQ(a, b);
    e.consume(obs(2, test::counter("d", 1, "symbol_error", 3)));
    auto c = e.snapshot();
    EXPECT_NE(a, c);
    EXPECT_GT(c->sequence, a->sequence);
    // The old snapshot is immutable: it still shows the old value.
    EXPECT_EQ(a->find_port(PortRef{"d", 1})->counters.at(0).raw, 1u);
    EXPECT_EQ(c->find_port(PortRef{"d", 1})->counters.at(0).raw, 3u);
}

class RecordingModule final : public EngineModule {
public:
    explicit RecordingModule(int* ticks) : ticks_(ticks) {}
    void observe(const Observation& o, EngineContext& ctx) override {
        if (std::holds_alternative<AsyncEvent>(o.body)) ctx.request_refresh(PortRef{"d", 1});
    }
    void tick(EngineContext&) override { ++*ticks_; }
    void contribute(Snapshot& s) const override { s.mrs.mrs.push_back(MrRecord{}); }

private:
    int* ticks_;
};

TEST(Engine, ModulesObserveTickContributeAndRequestRefreshes) {
    Engine e;
    int ticks = 0;
    e.add_module(std::make_unique<RecordingModule>(&ticks));
    AsyncEvent ev;
    ev.device = "d";
    ev.port = 1;
    ev.type = AsyncEventType::pkey_change;
    e.consume(obs(1, ev));
    e.advance(at(2));
    EXPECT_EQ(ticks, 2);
    EXPECT_EQ(e.snapshot()->mrs.mrs.size(), 1u);
    auto r = e.take_refresh_requests();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], (PortRef{"d", 1}));
    EXPECT_TRUE(e.take_refresh_requests().empty());
}

TEST(Engine, ConsecutiveSnapshotsShareTheDevicesThatDidNotChange) {
    auto e = make_default_engine();
    e->consume(obs(1, test::counter("a", 1, "symbol_error", 1)));
    e->consume(obs(1, test::counter("b", 1, "symbol_error", 1)));
    e->consume(obs(1, test::pkeys("b", 1, {0xffff})));
    auto first = e->snapshot();
    e->consume(obs(2, test::counter("a", 1, "symbol_error", 2)));
    auto second = e->snapshot();
    ASSERT_EQ(second->devices.size(), 2u);
    // "a" was read again; "b" was not touched and is the same object as before.
    EXPECT_NE(second->devices.shared(0), first->devices.shared(0));
    EXPECT_EQ(second->devices.shared(1), first->devices.shared(1));
    EXPECT_EQ(second->devices[0].ports[0].counters.at(0).raw, 2u);
    EXPECT_EQ(first->devices[0].ports[0].counters.at(0).raw, 1u);
    // Its revision stays; the changed device's counters alone do not move its revision either.
    EXPECT_EQ(second->devices[1].revision, first->devices[1].revision);
    EXPECT_EQ(second->devices[0].revision, first->devices[0].revision);
}

TEST(Engine, ADeviceWhosePKeyStateMovesWithTimeAloneIsBuiltAgain) {
    auto e = make_default_engine();
    // Watched by an event source, so the cache is judged.
    SourceStatus watching{true, "", {EventCoverage{"b", {}}}};
    e->consume(obs(1, watching, "events"));
    e->consume(obs(1, test::pkeys("b", 1, {0xffff})));
    e->consume(obs(2, test::pkeys("b", 1, {0xffff, 0x8001})));
    auto pending = e->snapshot();
    const auto* before = pending->find_port(PortRef{"b", 1});
    ASSERT_NE(before, nullptr);
    EXPECT_EQ(before->pkeys.cache, CacheJudgement::pending);
    // No observation: only the clock passes the grace period.
    e->advance(at(600));
    auto stale = e->snapshot();
    EXPECT_NE(stale->devices.shared(0), pending->devices.shared(0));
    EXPECT_EQ(stale->find_port(PortRef{"b", 1})->pkeys.cache, CacheJudgement::stale);
    EXPECT_GT(stale->devices[0].revision, pending->devices[0].revision);
    // The judgement holds: whether built again or not, the device keeps its revision.
    e->advance(at(601));
    EXPECT_EQ(e->snapshot()->devices[0].revision, stale->devices[0].revision);
}

constexpr Duration kRefresh = std::chrono::seconds(15);

TEST(Engine, ReadingsThatFindWhatTheLastFoundKeepTheLastSnapshotUntilItIsOld) {
    auto e = make_default_engine();
    e->consume(obs(1, test::counter("a", 1, "symbol_error", 1)));
    e->consume(obs(1, test::pkeys("a", 1, {0xffff})));
    auto first = e->snapshot_on_change(kRefresh);
    for (int t = 2; t <= 15; ++t) {
        e->consume(obs(t, test::counter("a", 1, "symbol_error", 1)));
        e->consume(obs(t, test::pkeys("a", 1, {0xffff})));
        EXPECT_EQ(e->snapshot_on_change(kRefresh), first) << "at " << t << " s";
    }
    // As old as the refresh: published again with the times of the last readings.
    e->consume(obs(16, test::counter("a", 1, "symbol_error", 1)));
    auto refreshed = e->snapshot_on_change(kRefresh);
    ASSERT_NE(refreshed, first);
    EXPECT_EQ(refreshed->find_port(PortRef{"a", 1})->counters.at(0).updated, at(16));
    EXPECT_EQ(refreshed->devices[0].revision, first->devices[0].revision);
    // A new value is published at once, and so is a new table.
    e->consume(obs(17, test::counter("a", 1, "symbol_error", 2)));
    auto counted = e->snapshot_on_change(kRefresh);
    ASSERT_NE(counted, refreshed);
    EXPECT_EQ(counted->find_port(PortRef{"a", 1})->counters.at(0).raw, 2u);
    e->consume(obs(18, test::pkeys("a", 1, {0xffff, 0x8001})));
    auto moved = e->snapshot_on_change(kRefresh);
    ASSERT_NE(moved, counted);
    EXPECT_EQ(moved->pkey_changes.size(), 1u);
}

TEST(Engine, WhatTimeAloneChangesIsPublishedAtOnce) {
    auto e = make_default_engine();
    SourceStatus watching{true, "", {EventCoverage{"b", {}}}};
    e->consume(obs(1, watching, "events"));
    e->consume(obs(1, test::pkeys("b", 1, {0xffff})));
    e->consume(obs(2, test::pkeys("b", 1, {0xffff, 0x8001})));
    auto pending = e->snapshot_on_change(kRefresh);
    ASSERT_EQ(pending->find_port(PortRef{"b", 1})->pkeys.cache, CacheJudgement::pending);
    // The same table read again within the grace period: nothing new.
    e->consume(obs(3, test::pkeys("b", 1, {0xffff, 0x8001})));
    EXPECT_EQ(e->snapshot_on_change(kRefresh), pending);
    // The grace period ends with no PKEY_CHANGE: the cache is judged stale and a finding raised,
    // long before the refresh would have come.
    e->advance(at(12));
    auto stale = e->snapshot_on_change(kRefresh);
    ASSERT_NE(stale, pending);
    EXPECT_EQ(stale->find_port(PortRef{"b", 1})->pkeys.cache, CacheJudgement::stale);
    EXPECT_FALSE(stale->findings.empty());
}

}  // namespace
}  // namespace rdmadiag::engine
