#pragma once
// `rdmadiag gids --diff` and `--watch`: a GID view's change entry by entry, with the generations it
// went between, and what the port's cache makes of it.

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// One change: a header line, then one line per index that changed (cache, sma, sm) or per
// address that came or went (netdev).
std::string render_gid_diff(const GidDiff& diff);
// The last change of each GID view of each selected port, and the coherence of its cache; ports
// whose views never changed say so.
std::string render_gid_diffs_text(const Snapshot& snapshot, const PortRef& filter);
codec::Json render_gid_diffs_json(const Snapshot& snapshot, const PortRef& filter);

}  // namespace rdmadiag::cli::render
