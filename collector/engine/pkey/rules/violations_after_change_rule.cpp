// pkey.violations_after_change: a P_Key violation or constraint-error counter that rises shortly
// after the table changed points at a consumer still using the old table or an old index.
// A rise with no change nearby is ordinary misconfiguration and is not this finding.

#include <algorithm>

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

namespace {

constexpr const char* kViolationsAdvice =
    "A consumer on this port (or a peer sending to it) is probably still using the old table or an "
    "old P_Key index. Find the QPs and interfaces of the partitions named here and restart or "
    "re-create them; check that the port's cache is not stale.";

std::string change_words(const PKeyDiff& d) {
    return "the " + std::string(to_string(d.view)) + " table change to generation " +
           std::to_string(d.new_generation) + " at " + format_time(d.time) + " (" +
           describe_changes(d.changes, 3) + ")";
}

void raise(PKeyRuleContext& rc, const PKeyDiff& diff, std::string what) {
    rc.track.last_violation_rise = rc.now();
    rc.raise_port(rc.make(kRuleViolationsAfterChange, Severity::critical, rc.port_subject(),
                          rc.now(), std::move(what) + " after " + change_words(diff),
                          kViolationsAdvice));
}

}  // namespace

void note_violation_rise(PKeyRuleContext& rc, const CounterTrack& counter, uint64_t rise) {
    const auto* diff = rc.track.last_diff.get();
    if (!diff || rc.now() - diff->time > rc.settings.violation_window) {
        // Not tied to a change; keep an active finding alive only while rises continue.
        if (rc.port_finding_active(kRuleViolationsAfterChange)) {
            rc.track.last_violation_rise = rc.now();
        }
        return;
    }
    raise(rc, *diff,
          rc.ctx.inventory().counter_name(counter) + " rose by " + std::to_string(rise) + " to " +
              std::to_string(counter.raw) + " at " + format_time(rc.now()) + ", " +
              format_duration(rc.now() - diff->time));
}

void look_back_for_violations(PKeyRuleContext& rc, const PKeyDiff& diff, TimePoint old_confirmed) {
    std::string names;
    for (const auto& vc : kViolationCounters) {
        const auto* c = rc.ctx.inventory().counter(rc.port, vc.kind, vc.name);
        if (!c || c->last_increase <= old_confirmed ||
            c->last_increase < diff.time - rc.settings.violation_window) {
            continue;
        }
        if (!names.empty()) names += ", ";
        names += std::string(vc.name) + " (at " + format_time(c->last_increase) + ")";
    }
    if (names.empty()) return;
    raise(
        rc, diff,
        names + " rose between the last read of the old table and the first read of the new one,");
}

TimePoint judge_violations_quiet(PKeyRuleContext& rc) {
    auto& t = rc.track;
    if (!t.last_violation_rise) return TimePoint::max();
    const TimePoint quiet_at = *t.last_violation_rise + rc.settings.violation_window;
    if (rc.now() < quiet_at) return quiet_at;
    rc.clear_port(kRuleViolationsAfterChange);
    t.last_violation_rise.reset();
    return TimePoint::max();
}

}  // namespace rdmadiag::engine::pkey::rules
