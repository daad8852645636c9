// pkey.removed: a key left the port's table; its consumers can no longer send in that partition.

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/change_subject.hpp"

namespace rdmadiag::engine::pkey::rules {

void report_removals(PKeyRuleContext& rc, const PKeyDiff& diff) {
    for (const auto& c : diff.changes) {
        if (c.kind != PKeyChangeKind::removed) continue;
        rc.hold(rc.make(kRuleRemoved, Severity::warning, change_subject(rc, c.index, c.old_key),
                        diff.time, describe_change(c) + " (" + generation_step(diff) + ")",
                        "Traffic in partition " + format_pkey(c.old_key) +
                            " from this port will be dropped. If the removal was not intended, "
                            "check the SM's partition configuration for this port; otherwise "
                            "stop the consumers still configured for it."));
    }
}

}  // namespace rdmadiag::engine::pkey::rules
