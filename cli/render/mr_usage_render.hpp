#pragma once
// `rdmadiag mrs --by-process`: who holds the MRs (RDMA netlink), per process and per device
// against max_mr, with the leak and owner-gone flags. Pure functions of a snapshot.

#include <string>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

std::string render_mr_usage_text(const Snapshot& snapshot, const std::string& origin);
codec::Json render_mr_usage_json(const Snapshot& snapshot, const std::string& origin);

}  // namespace rdmadiag::cli::render
