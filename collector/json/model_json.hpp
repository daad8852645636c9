#pragma once
// JSON codecs for the model's value types. Field names are stable and documented in
// docs/json.md; they are shared by --json output, the HTTP API and recordings.

#include "collector/json/checked_json.hpp"

#include "collector/model/counter_state.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const DeviceInfo& v);
void from_json(const codec::Json& j, DeviceInfo& v);
void to_json(codec::Json& j, const PortStateSample& v);
void from_json(const codec::Json& j, PortStateSample& v);
void to_json(codec::Json& j, const PKeyTable& v);
void from_json(const codec::Json& j, PKeyTable& v);
void to_json(codec::Json& j, const CounterState& v);
void from_json(const codec::Json& j, CounterState& v);
void to_json(codec::Json& j, const AsyncEvent& v);
void from_json(const codec::Json& j, AsyncEvent& v);
void to_json(codec::Json& j, const SampleError& v);
void from_json(const codec::Json& j, SampleError& v);
void to_json(codec::Json& j, const MrOwner& v);
void from_json(const codec::Json& j, MrOwner& v);
void to_json(codec::Json& j, const FindingSubject& v);
void from_json(const codec::Json& j, FindingSubject& v);
void to_json(codec::Json& j, const Finding& v);
void from_json(const codec::Json& j, Finding& v);

}  // namespace rdmadiag
