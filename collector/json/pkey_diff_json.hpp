#pragma once
// JSON of P_Key table changes (PKeyDiff) and the cache judgement.

#include "collector/json/checked_json.hpp"

#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const PKeyEntryChange& v);
void from_json(const codec::Json& j, PKeyEntryChange& v);
void to_json(codec::Json& j, const PKeyDiff& v);
void from_json(const codec::Json& j, PKeyDiff& v);

}  // namespace rdmadiag
