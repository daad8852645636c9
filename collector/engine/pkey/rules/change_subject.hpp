#pragma once
// Shared wording of the change findings: which generation step a change belongs to.

#include <string>

#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

inline FindingSubject change_subject(const PKeyRuleContext& rc, uint16_t index, uint16_t pkey) {
    FindingSubject s = rc.port_subject();
    s.index = index;
    s.pkey = pkey;
    return s;
}

inline std::string generation_step(const PKeyDiff& d) {
    return std::string(to_string(d.view)) + " generation " + std::to_string(d.old_generation) +
           " -> " + std::to_string(d.new_generation) + " at " + format_time(d.time);
}

}  // namespace rdmadiag::engine::pkey::rules
