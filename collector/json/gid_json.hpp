#pragma once
// JSON of the GID views: the entries, a port's views with their generations and last change, and
// the observation a source makes of one view.

#include "collector/json/checked_json.hpp"
#include "collector/model/gid_state.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const GidEntry& v);
void from_json(const codec::Json& j, GidEntry& v);
void to_json(codec::Json& j, const GidTable& v);
void from_json(const codec::Json& j, GidTable& v);
void to_json(codec::Json& j, const GidViewState& v);
void from_json(const codec::Json& j, GidViewState& v);
void to_json(codec::Json& j, const GidDiff& v);
void from_json(const codec::Json& j, GidDiff& v);
void to_json(codec::Json& j, const PortGidState& v);
void from_json(const codec::Json& j, PortGidState& v);
void to_json(codec::Json& j, const GidTableSample& v);
void from_json(const codec::Json& j, GidTableSample& v);

}  // namespace rdmadiag
