#include "collector/sim/scenario_player.hpp"

#include <algorithm>

namespace rdmadiag::sim {

namespace {
constexpr TimePoint kNever = TimePoint::max();

Duration positive_or(Duration d, Duration fallback) {
    return d > Duration::zero() ? d : fallback;
}
}  // namespace

ScenarioPlayer::ScenarioPlayer(Scenario scenario, PlayerOptions options)
    : scenario_(std::move(scenario)),
      options_(std::move(options)),
      effects_(compile_timeline(scenario_)),
      state_(scenario_, options_.source) {
    options_.counter_interval = positive_or(options_.counter_interval, std::chrono::seconds(1));
    options_.pkey_interval = positive_or(options_.pkey_interval, std::chrono::seconds(10));
}

void ScenarioPlayer::start(TimePoint start, sources::ObservationSink& sink) {
    if (started_) return;
    started_ = true;
    start_ = start;
    played_ = start;
    std::string what = "playing simulated scenario '" + scenario_.name + "'";
    if (scenario_.loop) what += " in a loop";
    // The simulated fabric delivers every device's async events: declare it, so the engine can
    // judge event-driven caches on its ports.
    SourceStatus status{true, what};
    for (const auto& d : scenario_.devices) {
        status.event_coverage.push_back(EventCoverage{d.device, {}});
    }
    sink.emit(Observation{start, options_.source, std::move(status)});
    // Once: the intent is the scenario's, not a round's, and the engine keeps what it was given.
    if (scenario_.partitions_conf && options_.hand_over_partitions_conf)
        sink.emit(Observation{start, options_.source, *scenario_.partitions_conf});
}

TimePoint ScenarioPlayer::next_effect_time() const {
    if (next_effect_ >= effects_.size()) return kNever;
    const Duration period = scenario_.end * static_cast<int64_t>(iteration_);
    return start_ + period + effects_[next_effect_].at;
}

void ScenarioPlayer::apply_next_effect(sources::ObservationSink& sink) {
    const auto& e = effects_[next_effect_];
    const TimePoint when = next_effect_time();
    auto r = state_.apply(e.action, when, sink);
    if (!r) {
        // Only a later loop iteration can get here (the parser plays the first one): the fabric
        // drifted from where the scenario expects it. Say so and carry on with the rest.
        sink.emit(Observation{
            when, options_.source,
            SampleError{"scenario " + scenario_.name + " line " + std::to_string(e.line),
                        r.error().message, 0}});
    }
    ++next_effect_;
    if (next_effect_ == effects_.size() && scenario_.loop && scenario_.end > Duration::zero()) {
        next_effect_ = 0;
        ++iteration_;
    }
}

void ScenarioPlayer::play_until(TimePoint now, sources::ObservationSink& sink) {
    if (!started_) start(now, sink);
    while (true) {
        const TimePoint te = next_effect_time();
        const TimePoint tc =
            start_ + options_.counter_interval * static_cast<int64_t>(counter_ticks_);
        const TimePoint tt = start_ + options_.pkey_interval * static_cast<int64_t>(table_ticks_);
        const TimePoint t = std::min({te, tc, tt});
        if (t > now) break;
        // At equal times effects come first, so a sample taken at the moment of a change sees it.
        if (te == t) {
            apply_next_effect(sink);
            continue;
        }
        if (tt == t) {
            state_.sample_tables(t, sink);
            ++table_ticks_;
        }
        if (tc == t) {
            state_.sample_counters(t, sink);
            ++counter_ticks_;
        }
    }
    played_ = std::max(played_, now);
}

void ScenarioPlayer::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    play_until(now, sink);
    if (port.port != 0) {
        state_.sample_port(port, now, sink);
        return;
    }
    for (const auto& p : scenario_.ports) {
        if (p.state.port.device == port.device) state_.sample_port(p.state.port, now, sink);
    }
}

}  // namespace rdmadiag::sim
