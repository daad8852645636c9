#pragma once
// JSON codecs for the model's value types. Field names are stable and documented in
// docs/json.md; they are shared by --json output, the HTTP API and recordings.

#include <nlohmann/json.hpp>

#include "collector/model/counter_state.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

void to_json(nlohmann::json& j, const DeviceInfo& v);
void from_json(const nlohmann::json& j, DeviceInfo& v);
void to_json(nlohmann::json& j, const PortStateSample& v);
void from_json(const nlohmann::json& j, PortStateSample& v);
void to_json(nlohmann::json& j, const PKeyTable& v);
void from_json(const nlohmann::json& j, PKeyTable& v);
void to_json(nlohmann::json& j, const CounterState& v);
void from_json(const nlohmann::json& j, CounterState& v);
void to_json(nlohmann::json& j, const AsyncEvent& v);
void from_json(const nlohmann::json& j, AsyncEvent& v);
void to_json(nlohmann::json& j, const SampleError& v);
void from_json(const nlohmann::json& j, SampleError& v);
void to_json(nlohmann::json& j, const MrOwner& v);
void from_json(const nlohmann::json& j, MrOwner& v);
void to_json(nlohmann::json& j, const FindingSubject& v);
void from_json(const nlohmann::json& j, FindingSubject& v);
void to_json(nlohmann::json& j, const Finding& v);
void from_json(const nlohmann::json& j, Finding& v);

}  // namespace rdmadiag
