#include "gui/client/engine_timeline.hpp"

#include <algorithm>

#include "collector/engine/default_engine.hpp"
#include "collector/engine/source_step.hpp"
#include "collector/sim/simulated_fabric.hpp"

namespace rdmadiag::gui {

Result<std::unique_ptr<EngineTimeline>> EngineTimeline::create(SourceMaker make, TimePoint start,
                                                               std::string description) {
    std::unique_ptr<EngineTimeline> t(
        new EngineTimeline(std::move(make), start, std::move(description)));
    auto ok = t->restart();
    if (!ok) return ok.error();
    return t;
}

EngineTimeline::EngineTimeline(SourceMaker make, TimePoint start, std::string description)
    : make_(std::move(make)), start_(start), description_(std::move(description)) {}

Result<void> EngineTimeline::restart() {
    auto src = make_();
    if (!src) return src.error();
    const auto avail = (*src)->availability();
    if (!avail.available) return make_error(description_ + ": " + avail.reason);
    const auto length = (*src)->playback_length();
    if (!length) return make_error(description_ + " has no end to play to");
    source_ = std::move(*src);
    length_ = *length;
    step_ = source_->poll_interval();
    if (step_ <= Duration::zero()) step_ = std::chrono::seconds(1);
    engine_ = engine::make_default_engine();
    engine_->advance(start_);
    at_ = start_;
    started_ = false;
    return {};
}

void EngineTimeline::step_to(TimePoint t) {
    engine::step_source(*source_, t, *engine_);
    at_ = t;
}

SnapshotPtr EngineTimeline::seek(Duration offset) {
    offset = std::clamp(offset, Duration::zero(), length_);
    const TimePoint target = start_ + offset;
    if (started_ && target < at_) {
        if (!restart()) return engine_ ? engine_->snapshot() : nullptr;
    }
    if (!started_) {
        step_to(start_);
        started_ = true;
    }
    // Polls happen on the source's grid (start + k * step), as they would live.
    while (at_ + step_ <= target) step_to(at_ + step_);
    if (at_ < target) engine_->advance(target);
    return engine_->snapshot();
}

Result<std::unique_ptr<EngineTimeline>> make_scenario_timeline(const std::string& scenario,
                                                               TimePoint start) {
    const std::string name = scenario.empty() ? std::string("default") : scenario;
    SourceMaker make = [name]() -> Result<std::unique_ptr<sources::Source>> {
        sources::SourceSettings settings;
        settings.scenario = name;
        return sim::make_sim_source(settings);
    };
    return EngineTimeline::create(std::move(make), start,
                                  "scenario '" + name + "' (simulated fabric)");
}

}  // namespace rdmadiag::gui
