#pragma once

#include <string>

#include "cli/render/pkeys_render.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// Each selected port's GIDs: the cache, sma and sm views index by index side by side (* marks an
// index where they disagree), the netdev view's addresses, the coherence of the cache and the
// port's GID_CHANGE and CLIENT_REREGISTER events.
// A GID with its RoCE type and netdev where it has them: "fe80:...:1  RoCE v2  eth0".
std::string format_gid_entry(const GidEntry& entry);

std::string render_gids_text(const Snapshot& snapshot, const PortRef& filter);
codec::Json render_gids_json(const Snapshot& snapshot, const PortRef& filter);

}  // namespace rdmadiag::cli::render
