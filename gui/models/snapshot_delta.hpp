#pragma once
// What changed in a daemon's state since the snapshot a client last saw: one answer of
// GET /api/v1/changes (docs/json.md). Devices come whole but without their counters; every other
// section is there only when it changed, and then complete. A `full` delta holds everything and
// replaces what the client had.

#include <optional>
#include <string>
#include <vector>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

struct SnapshotDelta {
    std::string instance;  // the daemon run's id; another one means start again
    uint64_t sequence = 0;
    TimePoint time;
    bool full = false;
    std::vector<DeviceSnapshot> devices;                   // changed since `since`, by name
    std::optional<std::vector<std::string>> device_names;  // every device, when the set changed
    std::optional<std::vector<SourceSnapshot>> sources;
    std::optional<std::vector<Finding>> findings;
    std::optional<std::vector<Finding>> finding_history;
    std::optional<std::vector<EventRecord>> events;
    std::optional<std::vector<ErrorRecord>> errors;
    std::optional<std::vector<EventTotal>> event_totals;
    std::optional<MrHealth> mrs;
    std::optional<std::vector<PKeyDiff>> pkey_changes;
};

// What applying a delta did, so that models touch only what changed.
struct DeltaEffect {
    bool reshaped = false;                     // devices came or went, or a device's ports did
    std::vector<std::string> changed_devices;  // replaced or added, by name
    std::vector<std::string> removed_devices;
    bool findings_changed = false;
    bool events_changed = false;
    bool mrs_changed = false;

    bool touches(std::string_view device) const;
};

// Applies `delta` to `state` in place. A device's counters are kept from `state` (the change
// feed does not carry them); a full delta replaces every section.
DeltaEffect apply_delta(Snapshot& state, SnapshotDelta delta);

}  // namespace rdmadiag::gui::models
