#pragma once
// JSON of MR health.

#include <nlohmann/json.hpp>

#include "collector/model/mr_state.hpp"

namespace rdmadiag {

void to_json(nlohmann::json& j, const MrRecord& v);
void from_json(const nlohmann::json& j, MrRecord& v);
void to_json(nlohmann::json& j, const MrHealth& v);
void from_json(const nlohmann::json& j, MrHealth& v);

}  // namespace rdmadiag
