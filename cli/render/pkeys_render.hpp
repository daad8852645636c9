#pragma once

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

struct PKeysRenderOptions {
    PortRef filter;           // empty device: all; port 0: every port of the device
    bool show_empty = false;  // list empty slots too
};

bool port_matches(const PortRef& filter, const PortRef& port);

// Each selected port's P_Key table, index by index, with every view rdmadiag holds side by side.
std::string render_pkeys_text(const Snapshot& snapshot, const PKeysRenderOptions& options);
codec::Json render_pkeys_json(const Snapshot& snapshot, const PKeysRenderOptions& options);

}  // namespace rdmadiag::cli::render
