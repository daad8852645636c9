#pragma once
// The simulated fabric source ("sim"): plays a scenario as if it were a machine's RDMA devices.
// It emits exactly the observation types real sources do (device lists and identities, port
// states, P_Key tables in the device, sma and sm views, counters with their widths, async events,
// MR events, its own status), so nothing downstream can tell it from one but its name.

#include <memory>

#include "collector/common/result.hpp"
#include "collector/sim/scenario_player.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::sim {

constexpr std::string_view kSimSourceName = "sim";

class SimulatedFabric final : public sources::Source {
public:
    SimulatedFabric(sim::Scenario scenario, sim::PlayerOptions options);

    std::string_view name() const override { return kSimSourceName; }
    sources::Availability availability() const override;
    Duration poll_interval() const override;
    // The first poll fixes the scenario's time zero unless start() did.
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override;

    void start(TimePoint start, sources::ObservationSink& sink) { player_.start(start, sink); }
    const sim::Scenario& scenario() const { return player_.scenario(); }
    const sim::ScenarioPlayer& player() const { return player_; }
    // When the scenario's story is told (for a loop: one period), from its start.
    Duration natural_end() const { return player_.scenario().end; }
    std::optional<Duration> playback_length() const override { return natural_end(); }

private:
    sim::ScenarioPlayer player_;
};

// Builds the source from settings: settings.scenario names a shipped scenario or a file (empty:
// the default); the counter and P_Key intervals are the settings' ones.
Result<std::unique_ptr<sources::Source>> make_sim_source(const sources::SourceSettings& settings);

// Same, keeping the concrete type (the CLI's --simulate reads natural_end()).
Result<std::unique_ptr<SimulatedFabric>> make_simulated_fabric(
    const sources::SourceSettings& settings);

// The natural end of a scenario: the time its story has been told (the loop period for a loop).
Duration scenario_natural_end(const sim::Scenario& scenario);

}  // namespace rdmadiag::sim
