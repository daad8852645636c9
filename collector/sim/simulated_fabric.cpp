#include "collector/sim/simulated_fabric.hpp"

#include <algorithm>

#include "collector/sim/shipped_scenarios.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

namespace rdmadiag::sim {

SimulatedFabric::SimulatedFabric(sim::Scenario scenario, sim::PlayerOptions options)
    : player_(std::move(scenario), std::move(options)) {}

sources::Availability SimulatedFabric::availability() const {
    // A scenario that parsed always plays; there is nothing on the machine it depends on.
    return sources::Availability{true,
                                 "simulated fabric, scenario '" + player_.scenario().name + "'"};
}

Duration SimulatedFabric::poll_interval() const {
    return std::min(player_.options().counter_interval, player_.options().pkey_interval);
}

void SimulatedFabric::poll(TimePoint now, sources::ObservationSink& sink) {
    player_.play_until(now, sink);
}

void SimulatedFabric::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    player_.refresh(port, now, sink);
}

Result<std::unique_ptr<SimulatedFabric>> make_simulated_fabric(
    const sources::SourceSettings& settings) {
    auto scenario = RDMADIAG_TRY(sim::load_scenario(settings.scenario));
    sim::PlayerOptions options;
    options.counter_interval = settings.counter_interval;
    options.pkey_interval = settings.pkey_interval;
    options.source = std::string(kSimSourceName);
    // A partitions.conf given to the collector (--partitions.conf, --intent) takes the place of the
    // scenario's: the engine judges against one intent, the one asked for.
    options.hand_over_partitions_conf = !settings.options.given(partitions_conf::kConfOption);
    return std::make_unique<SimulatedFabric>(std::move(scenario), std::move(options));
}

Result<std::unique_ptr<sources::Source>> make_sim_source(const sources::SourceSettings& settings) {
    auto fabric = RDMADIAG_TRY(make_simulated_fabric(settings));
    return std::unique_ptr<sources::Source>(std::move(fabric));
}

Duration scenario_natural_end(const sim::Scenario& scenario) {
    return scenario.end;
}

}  // namespace rdmadiag::sim
