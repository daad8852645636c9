#pragma once
// The JSON views /api/v1/ serves: the whole snapshot, and the slices the CLI's --remote mode and
// the GUI ask for. Every view is a pure function of a snapshot; filters (device, port) narrow
// the ports a view lists.

#include <optional>
#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"
#include "collector/publish/collector_stats.hpp"

namespace rdmadiag::api {

struct PortFilter {
    std::optional<std::string> device;
    std::optional<uint32_t> port;
    bool matches(const PortRef& ref) const;
};

codec::Json status_view(const Snapshot& snap, const publish::CollectorStats* stats);
codec::Json ports_view(const Snapshot& snap, const PortFilter& filter);
// Every view of every port's table with generations, plus where each view differs from the
// device view, index by index.
codec::Json pkeys_view(const Snapshot& snap, const PortFilter& filter);
codec::Json counters_view(const Snapshot& snap, const PortFilter& filter);
codec::Json findings_view(const Snapshot& snap);
codec::Json events_view(const Snapshot& snap, const PortFilter& filter);
codec::Json mrs_view(const Snapshot& snap, const std::optional<std::string>& state);

}  // namespace rdmadiag::api
