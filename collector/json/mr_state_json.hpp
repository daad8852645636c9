#pragma once
// JSON of MR health: the snapshot's "mrs" object (records, per-device counts, recoveries).
// Times are RFC 3339 strings, durations seconds, enums their stable names. Decoders throw on bad
// input like the other codecs; mr_health_from_json() returns a Result instead.

#include "collector/common/result.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/mr_state.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const MrRecord& v);
void from_json(const codec::Json& j, MrRecord& v);
void to_json(codec::Json& j, const MrDeviceHealth& v);
void from_json(const codec::Json& j, MrDeviceHealth& v);
void to_json(codec::Json& j, const MrRecovery& v);
void from_json(const codec::Json& j, MrRecovery& v);
void to_json(codec::Json& j, const MrKernelBehaviour& v);
void from_json(const codec::Json& j, MrKernelBehaviour& v);
void to_json(codec::Json& j, const MrProcessUsage& v);
void from_json(const codec::Json& j, MrProcessUsage& v);
void to_json(codec::Json& j, const MrDeviceUsage& v);
void from_json(const codec::Json& j, MrDeviceUsage& v);
void to_json(codec::Json& j, const MrUsage& v);
void from_json(const codec::Json& j, MrUsage& v);
void to_json(codec::Json& j, const MrHealth& v);
void from_json(const codec::Json& j, MrHealth& v);

}  // namespace rdmadiag

namespace rdmadiag::codec {

Result<MrHealth> mr_health_from_json(const Json& j);

}  // namespace rdmadiag::codec
