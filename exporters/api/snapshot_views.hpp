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
    // q=: a part of the device name, NodeDescription, node or port GUID ("0x..."), or the LID,
    // case-insensitive.
    std::optional<std::string> search;
    bool matches(const PortRef& ref) const;
    bool matches(const DeviceSnapshot& device, const PortSnapshot& port) const;
    bool matches_device(const DeviceSnapshot& device) const;  // search only
};

// offset= and limit=: a window of a long list. Views that page say `total` (what matched),
// `offset`, and `next_offset` while more follow.
struct Page {
    size_t offset = 0;
    std::optional<size_t> limit;
};

codec::Json status_view(const Snapshot& snap, const publish::CollectorStats* stats);
// The views that list ports or devices, and the whole snapshot, are written as JSON text item by
// item (JsonText): they grow with the fabric.
std::string ports_view(const Snapshot& snap, const PortFilter& filter, const Page& page = {});
// Every view of every port's table with generations, plus where each view differs from the
// device view, index by index.
std::string pkeys_view(const Snapshot& snap, const PortFilter& filter, const Page& page = {});
// Each port's GID views, the coherence of its cache and its GID events.
std::string gids_view(const Snapshot& snap, const PortFilter& filter, const Page& page = {});
std::string counters_view(const Snapshot& snap, const PortFilter& filter, const Page& page = {});
// One line per device or subnet node: its names, type, LID, reachability and port counts.
// `node_type` narrows to "switch", "CA", ...
std::string devices_view(const Snapshot& snap, const PortFilter& filter,
                         const std::optional<std::string>& node_type, const Page& page = {});
// The whole snapshot, as codec::snapshot_to_json has it.
std::string snapshot_text(const Snapshot& snap);
codec::Json findings_view(const Snapshot& snap);
codec::Json events_view(const Snapshot& snap, const PortFilter& filter);
codec::Json mrs_view(const Snapshot& snap, const std::optional<std::string>& state);
// The partition model as `rdmadiag partitions --json` writes it (codec::partitions_to_json), with
// `pkey` that partition's member ports; no partitions before the engine built a model.
codec::Json partitions_view(const Snapshot& snap, std::optional<uint16_t> pkey);
// Who uses each port's P_Keys and GIDs, and the consumer findings (device= and port= limit it).
codec::Json consumers_view(const Snapshot& snap, const PortFilter& filter);

}  // namespace rdmadiag::api
