#pragma once
// A recording of the daemon's answers: one snapshot JSON document (a saved
// `curl .../api/v1/snapshot`), or JSON Lines with one snapshot per line (a series of them).
// Lines that are not snapshots are skipped and counted, never fatal.

#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "gui/client/timeline.hpp"

namespace rdmadiag::gui::client {

struct SnapshotRecording {
    std::vector<SnapshotPtr> snapshots;  // by time
    size_t skipped = 0;
    std::string first_error;  // why the first skipped line was skipped
};

// Fails only when nothing in the text is a snapshot.
Result<SnapshotRecording> parse_snapshot_recording(std::string_view text);

class SnapshotTimeline final : public Timeline {
public:
    SnapshotTimeline(SnapshotRecording recording, std::string description);

    Duration length() const override;
    SnapshotPtr seek(Duration offset) override;
    std::string description() const override { return description_; }

private:
    SnapshotRecording recording_;
    std::string description_;
};

}  // namespace rdmadiag::gui::client
