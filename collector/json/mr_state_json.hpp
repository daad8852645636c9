#pragma once
// MR health <-> JSON, the "mrs" part of the snapshot JSON (API, recordings, CLI --json).
// Times are RFC 3339 strings (millisecond precision), durations are seconds, enums their stable
// names. from_json throws nlohmann::json exceptions or std::invalid_argument on bad input, as
// nlohmann converters do; mr_health_from_json() turns that into a Result.

#include <nlohmann/json.hpp>

#include "collector/model/mr_state.hpp"
#include "collector/model/result.hpp"

namespace rdmadiag {

void to_json(nlohmann::json& j, const MrOwner& o);
void from_json(const nlohmann::json& j, MrOwner& o);
void to_json(nlohmann::json& j, const MrRecord& r);
void from_json(const nlohmann::json& j, MrRecord& r);
void to_json(nlohmann::json& j, const MrDeviceHealth& d);
void from_json(const nlohmann::json& j, MrDeviceHealth& d);
void to_json(nlohmann::json& j, const MrRecovery& r);
void from_json(const nlohmann::json& j, MrRecovery& r);
void to_json(nlohmann::json& j, const MrHealth& h);
void from_json(const nlohmann::json& j, MrHealth& h);

Result<MrHealth> mr_health_from_json(const nlohmann::json& j);

}  // namespace rdmadiag
