#pragma once
// `rdmadiag mrs`: MRs with state, time in state, owner and advice, and the per-device counts.
// Pure functions of a snapshot.

#include <optional>
#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

struct MrsFilter {
    std::optional<MrState> state;  // only MRs in this state
};

std::string render_mrs_text(const Snapshot& snapshot, const std::string& origin,
                            const MrsFilter& filter);
codec::Json render_mrs_json(const Snapshot& snapshot, const std::string& origin,
                            const MrsFilter& filter);

}  // namespace rdmadiag::cli::render
