#pragma once
// JSON of a port's P_Key state (views with generations).

#include "collector/json/checked_json.hpp"

#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const PKeyViewState& v);
void from_json(const codec::Json& j, PKeyViewState& v);
void to_json(codec::Json& j, const PortPKeyState& v);
void from_json(const codec::Json& j, PortPKeyState& v);

}  // namespace rdmadiag
