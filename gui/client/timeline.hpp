#pragma once
// Something that can be played offline: a scenario or an observation recording run through the
// engine, or a recording of snapshots. Positions are offsets from the timeline's start.

#include <string>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::client {

class Timeline {
public:
    virtual ~Timeline() = default;
    virtual Duration length() const = 0;
    // The state at `offset` (clamped to [0, length]). Moving back is allowed and may replay from
    // the start.
    virtual SnapshotPtr seek(Duration offset) = 0;
    virtual std::string description() const = 0;
};

}  // namespace rdmadiag::gui::client
