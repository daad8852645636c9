#pragma once
// `rdmadiag pkeys --diff` and `--watch`: a P_Key table change index by index, with the generations
// it went between and what the port's cache makes of it.

#include <string>

#include "cli/render/pkeys_render.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// One change: a header line and one line per changed index, each followed by the consumers of the
// keys it touched when `consumers` lists any (who the change hits).
std::string render_pkey_diff(const PKeyDiff& diff, const Snapshot* consumers = nullptr);
// The same as JSON: the diff, and "hit": the consumers of each changed index's keys (left out
// when no consumers source reported).
codec::Json pkey_diff_json_with_consumers(const PKeyDiff& diff, const Snapshot& snapshot);
// The last change of each selected port, and its cache state; ports that never changed say so.
std::string render_pkey_diffs_text(const Snapshot& snapshot, const PKeysRenderOptions& options);
codec::Json render_pkey_diffs_json(const Snapshot& snapshot, const PKeysRenderOptions& options);

}  // namespace rdmadiag::cli::render
