#pragma once

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

struct CountersRenderOptions {
    PortRef filter;
    bool include_hw = false;  // driver hw_counters as well as PMA and PortInfo counters
};

std::string render_counters_text(const Snapshot& snapshot, const CountersRenderOptions& options);
codec::Json render_counters_json(const Snapshot& snapshot, const CountersRenderOptions& options);

}  // namespace rdmadiag::cli::render
