// The simulated fabric feeding the engine the way the collector does (poll, consume, route the
// engine's refresh requests back to the source): what the engine makes of it must be what it
// would make of a real fabric telling the same story.

#include <gtest/gtest.h>

#include <algorithm>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "tests/collector/sim/sim_test_support.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using sim::testing::t0;

class Collector {
public:
    explicit Collector(std::string scenario) {
        sources::SourceSettings settings;
        settings.scenario = std::move(scenario);
        auto f = make_simulated_fabric(settings);
        EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().message);
        fabric_ = std::move(*f);
        engine_ = engine::make_default_engine();
    }

    SnapshotPtr run_until(Duration until) {
        for (; now_ <= t0() + until; now_ += 100ms) {
            sources::VectorSink sink;
            fabric_->poll(now_, sink);
            feed(sink);
            for (const auto& port : engine_->take_refresh_requests()) {
                sources::VectorSink again;
                fabric_->refresh(port, now_, again);
                feed(again);
            }
            engine_->advance(now_);
        }
        return engine_->snapshot();
    }

private:
    void feed(const sources::VectorSink& sink) {
        for (const auto& o : sink.observations) engine_->consume(o);
    }

    std::unique_ptr<SimulatedFabric> fabric_;
    std::unique_ptr<engine::Engine> engine_;
    TimePoint now_ = t0();
};

const CounterState* counter(const Snapshot& s, const PortRef& port, std::string_view name) {
    const auto* p = s.find_port(port);
    if (p == nullptr) return nullptr;
    for (const auto& c : p->counters) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

TEST(SimulatedFabricEngine, DefaultFabricIsInventoried) {
    Collector c("default");
    const auto snap = c.run_until(5s);
    ASSERT_EQ(snap->devices.size(), 4u);
    for (const auto& d : snap->devices) {
        EXPECT_TRUE(d.present);
        EXPECT_EQ(d.source, "sim");
        EXPECT_EQ(d.ports.size(), 1u);
    }
    EXPECT_EQ(snap->find_device("cxgb4_0")->info.transport, Transport::iwarp);
    EXPECT_EQ(snap->find_device("mlx5_2")->info.transport, Transport::roce);
    ASSERT_EQ(snap->sources.size(), 1u);
    EXPECT_TRUE(snap->sources[0].up);
}

TEST(SimulatedFabricEngine, HotplugMarksTheDeviceAbsentThenPresent) {
    Collector c("device-hotplug");
    auto snap = c.run_until(30s);
    ASSERT_NE(snap->find_device("mlx5_1"), nullptr);
    EXPECT_FALSE(snap->find_device("mlx5_1")->present);
    EXPECT_TRUE(snap->find_device("mlx5_0")->present);
    snap = c.run_until(45s);
    EXPECT_TRUE(snap->find_device("mlx5_1")->present);
}

TEST(SimulatedFabricEngine, CounterStoriesKeepTotalsMonotonic) {
    {
        Collector c("counter-reset");
        const auto snap = c.run_until(40s);
        const auto* se = counter(*snap, PortRef{"mlx5_0", 1}, "symbol_error");
        ASSERT_NE(se, nullptr);
        EXPECT_EQ(se->resets, 1u);
        EXPECT_EQ(se->total, 124u);
    }
    {
        Collector c("counter-wrap-16bit");
        const auto snap = c.run_until(40s);
        const auto* pkv = counter(*snap, PortRef{"mlx5_0", 1}, "p_key_violations");
        ASSERT_NE(pkv, nullptr);
        EXPECT_EQ(pkv->wraps, 1u);
        EXPECT_EQ(pkv->total, 65800u);
    }
    {
        Collector c("counter-saturation-8bit");
        const auto snap = c.run_until(45s);
        const auto* rcv = counter(*snap, PortRef{"mlx5_0", 1}, "port_rcv_constraint_errors");
        ASSERT_NE(rcv, nullptr);
        EXPECT_TRUE(rcv->saturated);
        EXPECT_EQ(rcv->raw, 255u);
    }
}

TEST(SimulatedFabricEngine, PKeyChangeRaisesTheDeviceGeneration) {
    Collector c("pkey-index-moved");
    const auto before = c.run_until(5s);
    const auto after = c.run_until(21s);  // past the next P_Key poll, refresh or not
    const auto* b = before->find_port(PortRef{"mlx5_0", 1});
    const auto* a = after->find_port(PortRef{"mlx5_0", 1});
    ASSERT_TRUE(a && b);
    const auto* bd = b->pkeys.find(PKeyView::device);
    const auto* ad = a->pkeys.find(PKeyView::device);
    ASSERT_TRUE(ad && bd);
    EXPECT_GT(ad->generation, bd->generation);
    EXPECT_EQ(ad->table.keys[7], 0x8002);
}

bool has_finding(const Snapshot& snap, std::string_view rule) {
    return std::any_of(snap.findings.begin(), snap.findings.end(),
                       [&](const Finding& f) { return f.rule == rule; });
}

TEST(SimulatedFabricEngine, MrLeakStoryRaisesLeakThenExhaustion) {
    Collector c("mr-leak");
    auto snap = c.run_until(10min);
    ASSERT_FALSE(snap->mrs.usage.processes.empty());
    EXPECT_EQ(snap->mrs.usage.processes[0].comm, "trainer");
    EXPECT_EQ(snap->mrs.usage.devices.at(0).max_mr, 4000u);
    EXPECT_FALSE(has_finding(*snap, "mr.leak_suspected")) << "less than a window of growth";

    snap = c.run_until(11min);
    EXPECT_TRUE(has_finding(*snap, "mr.leak_suspected"));
    EXPECT_TRUE(snap->mrs.usage.processes[0].leak_suspected);
    EXPECT_FALSE(has_finding(*snap, "mr.exhaustion_near"));

    snap = c.run_until(22min);
    EXPECT_FALSE(has_finding(*snap, "mr.exhaustion_near"));
    snap = c.run_until(24min);
    EXPECT_TRUE(has_finding(*snap, "mr.exhaustion_near"));
    EXPECT_TRUE(has_finding(*snap, "mr.leak_suspected"));
}

TEST(SimulatedFabricEngine, MrOwnerGoneStoryWaitsOutTheGrace) {
    Collector c("mr-owner-gone");
    auto snap = c.run_until(45s);  // killed at 20 s: its MRs ownerless for less than the grace
    EXPECT_FALSE(has_finding(*snap, "mr.owner_gone"));
    EXPECT_EQ(snap->mrs.usage.devices.at(0).owner_gone_mrs, 300u);

    snap = c.run_until(60s);
    EXPECT_TRUE(has_finding(*snap, "mr.owner_gone"));
    EXPECT_TRUE(std::any_of(snap->mrs.usage.processes.begin(), snap->mrs.usage.processes.end(),
                            [](const MrProcessUsage& p) { return p.owner_gone && p.mrs == 300; }));

    snap = c.run_until(2min);
    EXPECT_TRUE(has_finding(*snap, "mr.owner_gone"));
    EXPECT_EQ(snap->mrs.usage.devices.at(0).mrs, 1100u);
}

}  // namespace
}  // namespace rdmadiag::sim
