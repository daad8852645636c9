#include "gui/client/engine_timeline.hpp"

#include <algorithm>

#include "collector/engine/default_engine.hpp"
#include "collector/runtime/virtual_playback.hpp"
#include "collector/sim/simulated_fabric.hpp"

namespace rdmadiag::gui::client {

Result<std::unique_ptr<EngineTimeline>> EngineTimeline::create(SourceMaker make, TimePoint start,
                                                               std::string description) {
    std::unique_ptr<EngineTimeline> t(
        new EngineTimeline(std::move(make), start, std::move(description)));
    RDMADIAG_TRY(t->restart());
    return t;
}

EngineTimeline::EngineTimeline(SourceMaker make, TimePoint start, std::string description)
    : make_(std::move(make)),
      start_(start),
      description_(std::move(description)),
      quiet_(common::LogLevel::error, common::LogFormat::logfmt, [](std::string_view) {}) {}

Result<void> EngineTimeline::restart() {
    auto src = RDMADIAG_TRY(make_());
    const auto avail = src->availability();
    if (!avail.available) return make_error(description_ + ": " + avail.reason);
    const auto length = src->playback_length();
    if (!length) return make_error(description_ + " has no end to play to");
    length_ = *length;
    runtime_.reset();  // it refers to the engine
    engine_ = engine::make_default_engine();
    engine_->advance(start_);
    clock_.set(start_);
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    runtime_ = std::make_unique<runtime::CollectorRuntime>(std::move(sources), *engine_, store_,
                                                           clock_, quiet_);
    return {};
}

SnapshotPtr EngineTimeline::seek(Duration offset) {
    offset = std::clamp(offset, Duration::zero(), length_);
    const TimePoint target = start_ + offset;
    if (target < clock_.now()) {
        if (!restart()) return engine_ ? engine_->snapshot() : nullptr;
    }
    // Polls stay on the source's grid (start + k * interval), as they would live; between two
    // polls the engine only moves on.
    runtime::play_until(*runtime_, clock_, target, runtime::AtEnd::advance);
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

}  // namespace rdmadiag::gui::client
