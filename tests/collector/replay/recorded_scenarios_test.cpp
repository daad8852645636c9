// Every P_Key scenario, run straight into the engine and replayed from its committed recording
// (tests/fixtures/recordings/<name>.jsonl), must reach the same findings. Set
// RDMADIAG_UPDATE_RECORDINGS=1 to rewrite the recordings after changing a scenario.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "collector/engine/default/default_engine.hpp"
#include "collector/replay/recorder.hpp"
#include "collector/replay/recording_reader.hpp"
#include "collector/replay/replay_source.hpp"
#include "tests/collector/replay/engine_findings.hpp"
#include "tests/collector/replay/pkey_scenario_streams.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::replay {
namespace {

using test::all_findings;
using test::fired;

class EngineSink final : public sources::ObservationSink {
public:
    explicit EngineSink(engine::Engine& e) : engine_(e) {}
    void emit(Observation obs) override { engine_.consume(obs); }

private:
    engine::Engine& engine_;
};

std::string fixture(const std::string& name) {
    return ::rdmadiag::test::fixtures_dir() + "/recordings/" + name + ".jsonl";
}

class RecordedScenario : public ::testing::TestWithParam<test::ScenarioStream> {};

TEST_P(RecordedScenario, ReplayReachesTheSameFindings) {
    const auto& scenario = GetParam();
    auto direct = engine::make_default_engine();
    for (const auto& o : scenario.observations) direct->consume(o);
    const auto expected = all_findings(*direct);
    for (const auto& rule : scenario.fires) EXPECT_TRUE(fired(expected, rule)) << rule;
    for (const auto& rule : scenario.absent) EXPECT_FALSE(fired(expected, rule)) << rule;

    const auto path = fixture(scenario.name);
    if (std::getenv("RDMADIAG_UPDATE_RECORDINGS")) {
        std::ofstream out(path);
        RecordingHeader h;
        h.created = scenario.observations.front().time;
        h.origin = "P_Key scenario " + scenario.name;
        Recorder rec(out, h);
        for (const auto& o : scenario.observations) rec.emit(o);
        ASSERT_TRUE(rec.good());
    }
    auto recording = read_recording_file(path);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    EXPECT_TRUE(recording->problems.empty());
    // The committed file is what the scenario produces today.
    EXPECT_EQ(recording->observations, scenario.observations)
        << "stale recording: rerun with RDMADIAG_UPDATE_RECORDINGS=1";

    auto replayed = engine::make_default_engine();
    EngineSink sink(*replayed);
    ReplaySource source(std::move(*recording), ReplaySettings{0, 64});
    TimePoint wall{};
    while (!source.finished()) source.poll(wall += std::chrono::milliseconds(1), sink);
    EXPECT_EQ(all_findings(*replayed), expected);
    EXPECT_EQ(replayed->snapshot()->devices, direct->snapshot()->devices);
}

std::string scenario_name(const ::testing::TestParamInfo<test::ScenarioStream>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(PKey, RecordedScenario, ::testing::ValuesIn(test::pkey_scenario_streams()),
                         scenario_name);

const CounterTrack* counter_after(const std::string& scenario, const char* name, CounterKind kind) {
    static std::vector<std::unique_ptr<engine::Engine>> keep;
    for (const auto& s : test::pkey_scenario_streams()) {
        if (s.name != scenario) continue;
        keep.push_back(engine::make_default_engine());
        for (const auto& o : s.observations) keep.back()->consume(o);
        return keep.back()->inventory().counter(PortRef{"mlx5_0", 1}, kind, name);
    }
    return nullptr;
}

TEST(RecordedCounters, ResetKeepsTheTotalGoingUp) {
    const auto* c = counter_after("counter_reset", "symbol_error", CounterKind::pma);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->resets, 1u);
    EXPECT_EQ(c->total, 509u + 9u);
    EXPECT_TRUE(c->last_reset().has_value());
}

TEST(RecordedCounters, SixteenBitWrapIsCounted) {
    const auto* c = counter_after("wrap_16bit", "p_key_violations", CounterKind::portinfo);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->wraps, 1u);
    EXPECT_EQ(c->resets, 0u);
    EXPECT_EQ(c->total, 65500u + 190u);
}

TEST(RecordedCounters, SaturationIsFlaggedThenCleared) {
    const auto* c =
        counter_after("saturation_8bit", "port_xmit_constraint_errors", CounterKind::pma);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->saturations, 1u);
    EXPECT_FALSE(c->saturated);
    EXPECT_EQ(c->resets, 1u);
    EXPECT_EQ(c->total, 255u);
}

}  // namespace
}  // namespace rdmadiag::replay
