#pragma once
// `rdmadiag pkeys --diff` and `--watch`: a P_Key table change index by index, with the generations
// it went between and what the port's cache makes of it.

#include <string>

#include "cli/render/pkeys_render.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// One change: a header line and one line per changed index.
std::string render_pkey_diff(const PKeyDiff& diff);
// The last change of each selected port, and its cache state; ports that never changed say so.
std::string render_pkey_diffs_text(const Snapshot& snapshot, const PKeysRenderOptions& options);
codec::Json render_pkey_diffs_json(const Snapshot& snapshot, const PKeysRenderOptions& options);

}  // namespace rdmadiag::cli::render
