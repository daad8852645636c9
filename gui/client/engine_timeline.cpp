#include "gui/client/engine_timeline.hpp"

#include <algorithm>

#include "collector/engine/default/default_engine.hpp"
#include "collector/runtime/virtual_playback.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"
#include "collector/sources/partitions_conf/partitions_options.hpp"

namespace rdmadiag::gui::client {

Result<std::unique_ptr<EngineTimeline>> EngineTimeline::create(SourceMaker make, TimePoint start,
                                                               std::string description,
                                                               std::vector<SourceMaker> beside) {
    std::unique_ptr<EngineTimeline> t(
        new EngineTimeline(std::move(make), start, std::move(description), std::move(beside)));
    RDMADIAG_TRY(t->restart());
    return t;
}

EngineTimeline::EngineTimeline(SourceMaker make, TimePoint start, std::string description,
                               std::vector<SourceMaker> beside)
    : make_(std::move(make)),
      beside_(std::move(beside)),
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
    for (const auto& make_beside : beside_) {
        auto other = RDMADIAG_TRY(make_beside());
        const auto ok = other->availability();
        if (!ok.available) return make_error(description_ + ": " + ok.reason);
        sources.push_back(std::move(other));
    }
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

Result<std::unique_ptr<EngineTimeline>> make_scenario_timeline(
    const std::string& scenario, TimePoint start,
    const std::map<std::string, std::string>& source_options) {
    const std::string name = scenario.empty() ? std::string("default") : scenario;
    sources::SourceSettings beside_settings;
    beside_settings.extra = source_options;
    RDMADIAG_TRY(sources::resolve_source_options(
        partitions_conf::kSourceName, partitions_conf::partitions_options(), beside_settings));
    SourceMaker make = [name]() -> Result<std::unique_ptr<sources::Source>> {
        sources::SourceSettings settings;
        settings.scenario = name;
        return sim::make_sim_source(settings);
    };
    std::string description = "scenario '" + name + "' (simulated fabric)";
    std::vector<SourceMaker> beside;
    if (auto conf = beside_settings.options.text(partitions_conf::kConfOption)) {
        beside.push_back([beside_settings] {
            return partitions_conf::make_partitions_conf_source(beside_settings);
        });
        description += " against " + *conf;
    }
    return EngineTimeline::create(std::move(make), start, std::move(description),
                                  std::move(beside));
}

}  // namespace rdmadiag::gui::client
