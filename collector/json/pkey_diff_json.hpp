#pragma once
// JSON of P_Key table changes (PKeyDiff) and the cache judgement.

#include <nlohmann/json.hpp>

#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

void to_json(nlohmann::json& j, const PKeyEntryChange& v);
void from_json(const nlohmann::json& j, PKeyEntryChange& v);
void to_json(nlohmann::json& j, const PKeyDiff& v);
void from_json(const nlohmann::json& j, PKeyDiff& v);

}  // namespace rdmadiag
