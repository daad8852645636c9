#pragma once
// A shipped scenario played end to end through the simulated fabric source and the default engine,
// on the scenario's own clock: the collector's runtime on a ManualClock, polled every 100 ms, no
// sleeps.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "collector/engine/default/default_engine.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "tests/collector/sim/sim_test_support.hpp"

namespace rdmadiag::sim::testing {

class ScenarioRun : public ::testing::Test {
protected:
    void start(const std::string& scenario) {
        sources::SourceSettings settings;
        settings.scenario = scenario;
        auto f = make_simulated_fabric(settings);
        ASSERT_TRUE(f.ok()) << f.error().message;
        engine = engine::make_default_engine();
        std::vector<std::unique_ptr<sources::Source>> sources;
        sources.push_back(std::move(*f));
        runtime = std::make_unique<runtime::CollectorRuntime>(std::move(sources), *engine, store,
                                                              clock, log);
    }

    // Polls the source every 100 ms up to t0() + at, through the collector's own loop.
    void run_to(Duration at) {
        for (; now <= t0() + at; now += std::chrono::milliseconds(100)) {
            clock.set(now);
            runtime->poll_all_at(now);
            runtime->step();
        }
    }

    ManualClock clock{t0()};
    common::Logger log{common::LogLevel::error, common::LogFormat::logfmt, [](std::string_view) {}};
    publish::SnapshotStore store;
    std::unique_ptr<runtime::CollectorRuntime> runtime;
    std::unique_ptr<engine::Engine> engine;
    TimePoint now = t0();
};

}  // namespace rdmadiag::sim::testing
