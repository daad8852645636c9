#include "collector/engine/engine.hpp"

#include "collector/engine/default_engine.hpp"

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

}  // namespace
}  // namespace rdmadiag::engine
