#include "collector/sim/simulated_fabric.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "collector/sim/scenario_parser.hpp"
#include "collector/sim/shipped_scenarios.hpp"
#include "tests/collector/sim/sim_test_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using sim::testing::t0;

// A scenario file in a fresh directory, removed at the end of the test.
class ScenarioFile {
public:
    explicit ScenarioFile(const std::string& text) { std::ofstream(path_) << text; }
    const std::string& path() const { return path_; }

private:
    test::TempDir dir_{"sim"};
    std::string path_ = dir_.file("my-fabric.scn");
};

TEST(SimulatedFabric, DefaultScenarioFromEmptySettings) {
    sources::SourceSettings settings;
    auto src = make_sim_source(settings);
    ASSERT_TRUE(src.ok()) << src.error().message;
    EXPECT_EQ((*src)->name(), "sim");
    EXPECT_TRUE((*src)->availability().available);
    EXPECT_EQ((*src)->poll_interval(), 1s);
    auto* fabric = dynamic_cast<SimulatedFabric*>(src->get());
    ASSERT_NE(fabric, nullptr);
    EXPECT_EQ(fabric->scenario().name, "default");
    EXPECT_TRUE(fabric->scenario().loop);
    EXPECT_EQ(fabric->natural_end(), 5min);
    EXPECT_EQ(scenario_natural_end(fabric->scenario()), 5min);
    EXPECT_EQ((*src)->playback_length(), std::optional<Duration>(5min));
}

TEST(SimulatedFabric, UsesTheSettingsIntervals) {
    sources::SourceSettings settings;
    settings.scenario = "port-flap";
    settings.counter_interval = 2s;
    settings.pkey_interval = 30s;
    auto fabric = make_simulated_fabric(settings);
    ASSERT_TRUE(fabric.ok()) << fabric.error().message;
    EXPECT_EQ((*fabric)->poll_interval(), 2s);
    sources::VectorSink sink;
    (*fabric)->poll(t0() + 0s, sink);
    (*fabric)->poll(t0() + 60s, sink);
    size_t tables = 0, states = 0;
    for (const auto& o : sink.observations) {
        tables += std::holds_alternative<PKeyTableSample>(o.body);
        states += std::holds_alternative<PortStateSample>(o.body);
    }
    EXPECT_EQ(tables, 3u * 3 + 3);  // mlx5_0: 3 views, mlx5_2: device; at 0s, 30s, 60s
    EXPECT_EQ(states, 31u * 2);     // two ports, every 2s
}

TEST(SimulatedFabric, LoadsAScenarioFile) {
    ScenarioFile file("device d0\nport d0:1\nat 1s event d0:1 PKEY_CHANGE\n");
    sources::SourceSettings settings;
    settings.scenario = file.path();
    auto fabric = make_simulated_fabric(settings);
    ASSERT_TRUE(fabric.ok()) << fabric.error().message;
    EXPECT_EQ((*fabric)->scenario().name, "my-fabric");
    EXPECT_EQ((*fabric)->natural_end(), 1s + sim::kDefaultTail);
}

TEST(SimulatedFabric, AScenarioFilesPartitionsConfIsNamedByTheFile) {
    ScenarioFile file("device d0\nport d0:1\npartitions.conf \"Default=0x7fff : ALL=full ;\"\n");
    sources::SourceSettings settings;
    settings.scenario = file.path();
    auto fabric = make_simulated_fabric(settings);
    ASSERT_TRUE(fabric.ok()) << fabric.error().message;
    ASSERT_TRUE((*fabric)->scenario().partitions_conf.has_value());
    EXPECT_EQ((*fabric)->scenario().partitions_conf->path, file.path());
    settings.scenario = "partition-drift";
    fabric = make_simulated_fabric(settings);
    ASSERT_TRUE(fabric.ok()) << fabric.error().message;
    EXPECT_EQ((*fabric)->scenario().partitions_conf->path, "partition-drift.scn");
}

TEST(SimulatedFabric, BadScenarioFileNamesFileLineAndColumn) {
    ScenarioFile file("device d0\nport d0:1 lid=banana\n");
    sources::SourceSettings settings;
    settings.scenario = file.path();
    auto src = make_sim_source(settings);
    ASSERT_FALSE(src.ok());
    EXPECT_EQ(src.error().message.substr(0, file.path().size() + 6), file.path() + ":2:11:")
        << src.error().message;
}

TEST(SimulatedFabric, MissingFileAndUnknownName) {
    sources::SourceSettings settings;
    settings.scenario = "/nonexistent/dir/x.scn";
    auto missing = make_sim_source(settings);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("cannot open scenario /nonexistent/dir/x.scn"),
              std::string::npos);
    EXPECT_EQ(missing.error().code, ENOENT);
    settings.scenario = "pkey-chnage";
    auto unknown = make_sim_source(settings);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("no shipped scenario 'pkey-chnage'"), std::string::npos);
    EXPECT_NE(unknown.error().message.find("pkey-change-with-event"), std::string::npos);
}

TEST(SimulatedFabric, LooksLikeARealSourceDownstream) {
    sources::SourceSettings settings;
    auto fabric = make_simulated_fabric(settings);
    ASSERT_TRUE(fabric.ok());
    sources::VectorSink sink;
    for (auto now = t0(); now <= t0() + 5min; now += 1s) {
        const size_t before = sink.observations.size();
        (*fabric)->poll(now, sink);
        for (size_t i = before; i < sink.observations.size(); ++i) {
            const auto* ev = std::get_if<AsyncEvent>(&sink.observations[i].body);
            if (ev && ev->type == AsyncEventType::pkey_change) {
                (*fabric)->refresh(PortRef{ev->device, *ev->port}, now, sink);
            }
        }
    }
    std::set<std::string_view> kinds;
    for (const auto& o : sink.observations) {
        EXPECT_EQ(o.source, "sim");
        kinds.insert(observation_kind(o.body));
        if (const auto* t = std::get_if<PKeyTableSample>(&o.body)) {
            EXPECT_NE(t->view, PKeyView::cache);
        }
    }
    for (const auto& o : std::vector<ObservationBody>{DeviceList{}, DeviceInfo{}, PortStateSample{},
                                                      PKeyTableSample{}, CounterSample{},
                                                      AsyncEvent{}, MrEvent{}, SourceStatus{}}) {
        EXPECT_EQ(kinds.count(observation_kind(o)), 1u) << observation_kind(o);
    }
    EXPECT_EQ(kinds.count(observation_kind(SampleError{})), 0u);
}

}  // namespace
}  // namespace rdmadiag::sim
