#pragma once
// An observation recording (`rdmadiag record`) played through the default engine offline, the
// way `rdmadiag replay` plays it, but seekable: the engine's clock runs on the recorded times, so
// the dashboard reaches the findings, cache judgements and MR advice the engine reached live.

#include <memory>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/replay/recording_reader.hpp"
#include "gui/client/engine_timeline.hpp"

namespace rdmadiag::gui::client {

// Fails when the recording holds no observations. `name` says where it came from (a path).
Result<std::unique_ptr<EngineTimeline>> make_recording_timeline(replay::Recording recording,
                                                                const std::string& name);

// The text of a recording file: read, then played. Lines the reader skipped are counted in the
// timeline's description; a bad or missing header fails.
Result<std::unique_ptr<EngineTimeline>> make_recording_timeline(std::string_view text,
                                                                const std::string& name);

}  // namespace rdmadiag::gui::client
