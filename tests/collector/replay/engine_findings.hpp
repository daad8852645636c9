#pragma once
// What the replay tests compare between a direct run and its replay: every finding an engine
// raised, the active ones and those already cleared.

#include <algorithm>
#include <string>
#include <vector>

#include "collector/engine/engine.hpp"

namespace rdmadiag::test {

inline std::vector<Finding> all_findings(const engine::Engine& e) {
    auto f = e.findings().active();
    f.insert(f.end(), e.findings().history().begin(), e.findings().history().end());
    return f;
}

inline bool fired(const std::vector<Finding>& findings, const std::string& rule) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const Finding& f) { return f.rule == rule; });
}

}  // namespace rdmadiag::test
