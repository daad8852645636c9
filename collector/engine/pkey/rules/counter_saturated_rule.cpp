// pkey.counter_saturated: PortRcv/XmitConstraintErrors are 8 bits wide and stop at 255 (the
// PortInfo violation counters at 65535); a counter at its maximum cannot show new violations, so
// "no rise" must not be read as "no violations".

#include <algorithm>

#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

void judge_counter_saturation(PKeyRuleContext& rc) {
    std::string evidence;
    std::optional<TimePoint> since;
    for (const auto& vc : kViolationCounters) {
        const auto* c = rc.ctx.inventory().counter(rc.port, vc.kind, vc.name);
        if (!c || !c->saturated) continue;
        const TimePoint at = c->saturated_since().value_or(rc.now());
        since = since ? std::min(*since, at) : at;
        if (!evidence.empty()) evidence += "; ";
        evidence += std::string(vc.name) + " is saturated at " + std::to_string(c->raw) + " (" +
                    std::to_string(c->width) + "-bit) since " + format_time(at);
    }
    if (!since) {
        rc.clear_port(kRuleCounterSaturated);
        return;
    }
    rc.raise_port(rc.make(
        kRuleCounterSaturated, Severity::warning, rc.port_subject(), *since,
        evidence + ": new P_Key violations on this port cannot be seen",
        "Clear the port's counters (perfquery -R, or the PMA reset your tools use) so violations "
        "become visible again; until then pkey.violations_after_change cannot fire here."));
}

}  // namespace rdmadiag::engine::pkey::rules
