#pragma once
// Observations as JSON: one object per observation, the form recordings store one per line.
// {"time": "...Z" (nanosecond precision), "source": "sysfs", "kind": "pkey_table", ...body fields}
// The kinds and their fields are documented in docs/recording.md.

#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const CounterSample& v);
void from_json(const codec::Json& j, CounterSample& v);
void to_json(codec::Json& j, const PKeyTableSample& v);
void from_json(const codec::Json& j, PKeyTableSample& v);
void to_json(codec::Json& j, const EventCoverage& v);
void from_json(const codec::Json& j, EventCoverage& v);
void to_json(codec::Json& j, const SourceStatus& v);
void from_json(const codec::Json& j, SourceStatus& v);

}  // namespace rdmadiag

namespace rdmadiag::codec {

codec::Json observation_to_json(const Observation& obs);

// Never throws: a missing field, an unknown kind or a bad value is an Error naming it.
Result<Observation> observation_from_json(const codec::Json& j);

// One line of JSON (no trailing newline) and back.
std::string observation_to_line(const Observation& obs);

Result<Observation> observation_from_line(std::string_view line);

// RFC 3339 UTC with all nine fractional digits, so a replay sees the very same times.
std::string format_time_ns(TimePoint t);

}  // namespace rdmadiag::codec
