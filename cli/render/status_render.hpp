#pragma once

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// `origin` names where the data came from ("sysfs at /sys", "simulated fabric, scenario ...").
std::string render_status_text(const Snapshot& snapshot, const std::string& origin);
codec::Json render_status_json(const Snapshot& snapshot, const std::string& origin);

}  // namespace rdmadiag::cli::render
