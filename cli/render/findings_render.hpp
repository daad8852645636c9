#pragma once

#include <string>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// "Findings: 2 (1 critical, 1 warning)" and one line per active finding, most severe first.
std::string render_findings_summary(const Snapshot& snapshot, size_t max_lines = 10);

}  // namespace rdmadiag::cli::render
