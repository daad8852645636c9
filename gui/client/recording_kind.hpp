#pragma once
// What a file given as RECORDING holds, told by its content, never by its name: an observation
// recording (`rdmadiag record`, docs/recording.md) starts with its header line
// {"format":"rdmadiag-recording",...}; anything else is taken as saved API snapshots (one
// pretty-printed document, or JSON Lines of them).

#include <string_view>

namespace rdmadiag::gui::client {

enum class RecordingKind { observations, snapshots };

RecordingKind detect_recording_kind(std::string_view text);

}  // namespace rdmadiag::gui::client
