// pkey.membership_changed: the membership bit of a key flipped. Two limited members cannot talk
// to each other, so full -> limited silently cuts peers that are limited too.

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/change_subject.hpp"

namespace rdmadiag::engine::pkey::rules {

void report_membership_changes(PKeyRuleContext& rc, const PKeyDiff& diff) {
    for (const auto& c : diff.changes) {
        if (c.kind != PKeyChangeKind::membership_changed) continue;
        const bool to_limited = !pkey_is_full(c.new_key);
        rc.hold(rc.make(
            kRuleMembershipChanged, to_limited ? Severity::warning : Severity::info,
            change_subject(rc, c.index, c.new_key), diff.time,
            describe_change(c) + " (" + generation_step(diff) + ")",
            to_limited ? "This port is now a limited member: it can no longer reach other limited "
                         "members of the partition, only full ones. Check the membership in the "
                         "SM's partition configuration if that was not intended."
                       : "This port is now a full member of the partition. No action is needed "
                         "if that was intended."));
    }
}

}  // namespace rdmadiag::engine::pkey::rules
