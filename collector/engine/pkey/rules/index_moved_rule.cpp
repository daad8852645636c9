// pkey.index_moved: consumers address P_Keys by index (UD QPs, IPoIB child interfaces, address
// handles). A key that moved leaves them sending with whatever now sits at the old index.

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/change_subject.hpp"

namespace rdmadiag::engine::pkey::rules {

void report_index_moves(PKeyRuleContext& rc, const PKeyDiff& diff) {
    for (const auto& c : diff.changes) {
        if (c.kind != PKeyChangeKind::moved) continue;
        const std::string old_index = std::to_string(c.old_index.value_or(0));
        rc.hold(
            rc.make(kRuleIndexMoved, Severity::warning, change_subject(rc, c.index, c.new_key),
                    diff.time, describe_change(c) + " (" + generation_step(diff) + ")",
                    "QPs and address handles created with P_Key index " + old_index +
                        " now use whatever sits there. Restart or re-create the consumers of " +
                        format_pkey(c.new_key) +
                        " on this port (IPoIB child interface down/up, "
                        "re-connect ULPs) so they look the index up again; keep partitions.conf "
                        "stable to avoid moves."));
    }
}

}  // namespace rdmadiag::engine::pkey::rules
