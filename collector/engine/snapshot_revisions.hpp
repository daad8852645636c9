#pragma once
// Marks what changed between two snapshots: each device whose state differs from its copy in the
// previous snapshot, and each section (sources, findings, events, ...), gets the new snapshot's
// sequence as its revision; what did not change keeps the previous revision. Counters and the
// times things were read or confirmed are not state here: they move on every poll, and a client
// that wants them asks for them (the API's change feed is built on this).

#include "collector/model/snapshot.hpp"

namespace rdmadiag::engine {

// `next` has its sequence set; `previous` may be null (the first snapshot: everything is new).
void assign_revisions(Snapshot& next, const Snapshot* previous);
// assign_revisions in its two steps: the devices (and the devices section), as soon as the devices
// are filled; then every other section, once the snapshot is complete.
void assign_device_revisions(Snapshot& next, const Snapshot* previous);
void assign_section_revisions(Snapshot& next, const Snapshot* previous);

// Whether two devices have the same state, leaving out counters and read times.
bool same_device_state(const DeviceSnapshot& a, const DeviceSnapshot& b);

}  // namespace rdmadiag::engine
