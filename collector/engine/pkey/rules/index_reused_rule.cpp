// pkey.index_reused: a key took an index another key held. Consumers created with that index for
// the old key (UD QPs, address handles, IPoIB child interfaces) and not torn down now send with
// the new key: into another partition, and no violation counter says so.

#include "collector/engine/inventory.hpp"
#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/change_subject.hpp"

namespace rdmadiag::engine::pkey::rules {

namespace {

// A switch's external ports enforce partitions by key value, and opensm writes their tables
// packed from the attached CA's table: keys shift there on every change and nothing addresses
// them by index. Their diffs still say which indexes were reused; only consumers' ports raise this.
bool switch_external_port(const PKeyRuleContext& rc) {
    const DeviceInfo* dev = rc.ctx.inventory().device(rc.port.device);
    return dev != nullptr && dev->node_type == "switch" && rc.port.port != 0;
}

}  // namespace

void report_index_reuses(PKeyRuleContext& rc, const PKeyDiff& diff) {
    if (switch_external_port(rc)) return;
    for (const auto& c : diff.changes) {
        if (!c.previous_key) continue;
        const std::string index = std::to_string(c.index);
        rc.hold(rc.make(
            kRuleIndexReused, Severity::warning, change_subject(rc, c.index, c.new_key), diff.time,
            describe_change(c) + " (" + generation_step(diff) + ")",
            "QPs, address handles and IPoIB child interfaces created with P_Key index " + index +
                " for " + format_pkey(*c.previous_key) + " and still alive now send in partition " +
                format_pkey(c.new_key) + ". Find and re-create the consumers of " +
                format_pkey(*c.previous_key) +
                " on this port; to keep indexes from being reused, "
                "leave room in the table (opensm reuses a freed index only when nothing is free "
                "after its last used one)."));
    }
}

}  // namespace rdmadiag::engine::pkey::rules
