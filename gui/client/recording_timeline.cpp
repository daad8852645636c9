#include "gui/client/recording_timeline.hpp"

#include <sstream>

#include "collector/replay/replay_source.hpp"

namespace rdmadiag::gui::client {

Result<std::unique_ptr<EngineTimeline>> make_recording_timeline(replay::Recording recording,
                                                                const std::string& name) {
    if (recording.observations.empty()) {
        return make_error("recording " + name + " holds no observations");
    }
    // Started at the first observation's time and played at speed 1, the source hands every
    // observation over at its recorded time on the timeline's clock.
    const TimePoint start = recording.observations.front().time;
    std::string description = "recording " + name;
    if (!recording.header.origin.empty()) description += " (" + recording.header.origin + ")";
    if (!recording.problems.empty()) {
        description += ", " + std::to_string(recording.problems.size()) + " lines skipped";
    }
    auto shared = std::make_shared<const replay::Recording>(std::move(recording));
    SourceMaker make = [shared]() -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(
            std::make_unique<replay::ReplaySource>(*shared, replay::ReplaySettings{}));
    };
    return EngineTimeline::create(std::move(make), start, std::move(description));
}

Result<std::unique_ptr<EngineTimeline>> make_recording_timeline(std::string_view text,
                                                                const std::string& name) {
    std::istringstream in{std::string(text)};
    auto rec = replay::read_recording(in);
    if (!rec) return make_error(name + ": " + rec.error().message);
    return make_recording_timeline(std::move(*rec), name);
}

}  // namespace rdmadiag::gui::client
