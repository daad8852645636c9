#pragma once
// `rdmadiag gids --diff` and `--watch`: a GID view's change entry by entry, with the generations it
// went between, and what the port's cache makes of it.

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// One change: a header line, then one line per index that changed (cache, sma, sm) or per
// address that came or went (netdev); then, when `consumers` lists any, who sent from each GID
// that left.
std::string render_gid_diff(const GidDiff& diff, const Snapshot* consumers = nullptr);
// The same as JSON: the diff, and "hit": the consumers of each GID that left (left out when no
// consumers source reported).
codec::Json gid_diff_json_with_consumers(const GidDiff& diff, const Snapshot& snapshot);
// The last change of each GID view of each selected port, and the coherence of its cache; ports
// whose views never changed say so.
std::string render_gid_diffs_text(const Snapshot& snapshot, const PortRef& filter);
codec::Json render_gid_diffs_json(const Snapshot& snapshot, const PortRef& filter);

}  // namespace rdmadiag::cli::render
