#pragma once
// JSON of a port's P_Key state (views with generations).

#include <nlohmann/json.hpp>

#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

void to_json(nlohmann::json& j, const PKeyViewState& v);
void from_json(const nlohmann::json& j, PKeyViewState& v);
void to_json(nlohmann::json& j, const PortPKeyState& v);
void from_json(const nlohmann::json& j, PortPKeyState& v);

}  // namespace rdmadiag
