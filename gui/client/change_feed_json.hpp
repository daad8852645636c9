#pragma once
// Reading the daemon's answers that the change-feed client needs besides the snapshot:
// GET /api/v1/changes (a SnapshotDelta, docs/json.md) and GET /api/v1/counters for one port.

#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/model/snapshot.hpp"
#include "gui/models/snapshot_delta.hpp"

namespace rdmadiag::gui::client {

Result<models::SnapshotDelta> parse_snapshot_delta(std::string_view text);

// One port's counters from a /api/v1/counters?device=D&port=N answer, with the answer's time.
struct PortCounters {
    PortRef port;
    TimePoint time;
    std::vector<CounterState> counters;
};
Result<PortCounters> parse_port_counters(std::string_view text, const PortRef& port);

}  // namespace rdmadiag::gui::client
