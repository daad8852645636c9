#pragma once
// `rdmadiag consumers`: who uses each port's P_Keys and GIDs, device by device: IPoIB interfaces,
// SRP hosts, RDMA CM IDs, and QPs counted per type and owner, each with the P_Key (and the index,
// with how it is known) and the GID it uses; then the consumer findings of the selected ports.

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

std::string render_consumers_text(const Snapshot& snapshot, const PortRef& filter);
codec::Json render_consumers_json(const Snapshot& snapshot, const PortRef& filter);

// The consumers of one port that use `pkey` (any membership) or `gid`, as one line each, for the
// lists of changes ("  used by ib0.8001 (IPoIB, index 3 inferred), cm_id 5 (rping pid 145)").
std::string consumers_of_pkey(const Snapshot& snapshot, const PortRef& port, uint16_t pkey);
std::string consumers_of_gid(const Snapshot& snapshot, const PortRef& port, const Gid& gid);

}  // namespace rdmadiag::cli::render
