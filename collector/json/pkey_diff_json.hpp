#pragma once
// JSON of P_Key table changes (PKeyDiff) and the cache judgement.

#include "collector/json/checked_json.hpp"

#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

void to_json(rdmadiag::Json& j, const PKeyEntryChange& v);
void from_json(const rdmadiag::Json& j, PKeyEntryChange& v);
void to_json(rdmadiag::Json& j, const PKeyDiff& v);
void from_json(const rdmadiag::Json& j, PKeyDiff& v);

}  // namespace rdmadiag
