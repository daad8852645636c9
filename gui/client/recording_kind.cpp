#include "gui/client/recording_kind.hpp"

#include "collector/json/checked_json.hpp"

#include "collector/replay/recording_format.hpp"

namespace rdmadiag::gui::client {

RecordingKind detect_recording_kind(std::string_view text) {
    // The first line that is not blank. A snapshot is never a one-line object naming this format,
    // so the header alone decides; its version is checked later by the reader, which can say
    // what is wrong with it.
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        const auto j = codec::Json::parse(line.begin(), line.end(), nullptr, false);
        if (j.is_object()) {
            const auto format = j.find("format");
            if (format != j.end() && format->is_string() &&
                format->get<std::string>() == replay::kRecordingFormat) {
                return RecordingKind::observations;
            }
        }
        break;
    }
    return RecordingKind::snapshots;
}

}  // namespace rdmadiag::gui::client
