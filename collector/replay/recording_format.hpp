#pragma once
// A recording is JSON Lines: a header line naming the format and its version, then one
// observation per line in time order (docs/recording.md).
// {"format":"rdmadiag-recording","version":1,"created":"...Z","origin":"rdmadiag record", ...}

#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"

namespace rdmadiag::replay {

inline constexpr std::string_view kRecordingFormat = "rdmadiag-recording";
inline constexpr int kRecordingVersion = 1;

struct RecordingHeader {
    int version = kRecordingVersion;
    TimePoint created;
    std::string origin;  // what made it: "rdmadiag record --simulate=late_event"
    std::string host;
    bool operator==(const RecordingHeader&) const = default;
};

std::string recording_header_line(const RecordingHeader& header);
// Fails when the line is not a header, or names a version this build cannot read.
Result<RecordingHeader> parse_recording_header(std::string_view line);

}  // namespace rdmadiag::replay
