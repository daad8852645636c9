#pragma once
// Plays a scenario against time: effects happen at their scenario time from the start, and the
// fabric is sampled on two cadences like a real polled source (port states and counters on the
// fast one, device identities and P_Key tables on the slow one). Everything is stamped with the
// time it happened in the scenario, not the time of the poll that emitted it, so the same
// scenario gives the same observations whatever the poll times.

#include <string>
#include <vector>

#include "collector/sim/fabric_state.hpp"
#include "collector/sim/scenario.hpp"
#include "collector/sim/timeline.hpp"

namespace rdmadiag::sim {

struct PlayerOptions {
    Duration counter_interval = std::chrono::seconds(1);
    Duration pkey_interval = std::chrono::seconds(10);
    std::string source = "sim";
    // Whether the scenario's partitions.conf is handed to the engine at time zero; not when the
    // collector reads one of its own, which takes its place.
    bool hand_over_partitions_conf = true;
};

class ScenarioPlayer {
public:
    ScenarioPlayer(Scenario scenario, PlayerOptions options);

    // Fixes time zero of the scenario and emits the source's status, then the scenario's
    // partitions.conf if it has one. Later calls are ignored.
    void start(TimePoint start, sources::ObservationSink& sink);
    bool started() const { return started_; }
    TimePoint start_time() const { return start_; }

    // Emits everything due at or before `now` (starting at `now` if not started yet).
    void play_until(TimePoint now, sources::ObservationSink& sink);
    // Plays up to `now`, then re-reads one port (all of a device's ports for port 0).
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink);

    const Scenario& scenario() const { return scenario_; }
    const FabricState& state() const { return state_; }
    const PlayerOptions& options() const { return options_; }
    // Time the timeline has been played to.
    TimePoint played_until() const { return played_; }

private:
    TimePoint next_effect_time() const;
    void apply_next_effect(sources::ObservationSink& sink);

    Scenario scenario_;
    PlayerOptions options_;
    std::vector<Effect> effects_;
    FabricState state_;
    bool started_ = false;
    TimePoint start_{};
    TimePoint played_{};
    size_t next_effect_ = 0;
    uint64_t iteration_ = 0;
    uint64_t counter_ticks_ = 0;
    uint64_t table_ticks_ = 0;
};

}  // namespace rdmadiag::sim
