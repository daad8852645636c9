#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli {

// `origin` names where the data came from ("sysfs at /sys", "simulated fabric, scenario ...").
std::string render_status_text(const Snapshot& snapshot, const std::string& origin);
nlohmann::json render_status_json(const Snapshot& snapshot, const std::string& origin);

}  // namespace rdmadiag::cli
