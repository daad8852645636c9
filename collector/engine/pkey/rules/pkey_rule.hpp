#pragma once
// What every P_Key rule works with: one port's state, the settings, and the engine's context to
// raise and clear findings. Each rule lives in its own file with its stable id.

#include <string_view>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/pkey/pkey_settings.hpp"
#include "collector/engine/pkey/port_pkey_track.hpp"
#include "collector/model/counter_state.hpp"

namespace rdmadiag::engine::pkey::rules {

inline constexpr std::string_view kRuleCacheStale = "pkey.cache_stale";
inline constexpr std::string_view kRuleViewDivergence = "pkey.view_divergence";
inline constexpr std::string_view kRuleIndexMoved = "pkey.index_moved";
inline constexpr std::string_view kRuleRemoved = "pkey.removed";
inline constexpr std::string_view kRuleIndexReused = "pkey.index_reused";
inline constexpr std::string_view kRuleMembershipChanged = "pkey.membership_changed";
inline constexpr std::string_view kRuleViolationsAfterChange = "pkey.violations_after_change";
inline constexpr std::string_view kRuleSpuriousEvent = "pkey.spurious_event";
inline constexpr std::string_view kRuleFlapping = "pkey.flapping";
inline constexpr std::string_view kRuleCounterSaturated = "pkey.counter_saturated";

// The counters that count P_Key trouble on a port, and where the inventory keeps them.
struct ViolationCounter {
    CounterKind kind;
    std::string_view name;
};
inline constexpr ViolationCounter kViolationCounters[] = {
    {CounterKind::portinfo, "p_key_violations"},
    {CounterKind::pma, "port_rcv_constraint_errors"},
    {CounterKind::pma, "port_xmit_constraint_errors"},
};

struct PKeyRuleContext {
    const PortRef& port;
    PortPKeyTrack& track;
    const PKeySettings& settings;
    EngineContext& ctx;

    TimePoint now() const { return ctx.now(); }
    FindingSubject port_subject() const;
    Finding make(std::string_view rule, Severity severity, FindingSubject subject, TimePoint since,
                 std::string evidence, std::string advice) const;
    // Port-wide findings (subject: device and port).
    void raise_port(Finding finding) const;
    void clear_port(std::string_view rule) const;
    bool port_finding_active(std::string_view rule) const;
    // Raises a finding about a moment; it stays active for settings.change_hold.
    void hold(Finding finding) const;
};

// Each judge_* states the truth for the port now and returns when it next needs to look again
// (TimePoint::max() when nothing is pending).

// pkey.cache_stale: the emulated cache differs from the device longer than cache_grace.
TimePoint judge_cache_staleness(PKeyRuleContext& rc);
// Called when a delivered PKEY_CHANGE reloaded a stale cache: the finding clears with how long
// the cache was stale.
void note_cache_healed(PKeyRuleContext& rc);

// pkey.view_divergence: device / sma / sm disagree longer than divergence_grace.
TimePoint judge_view_divergence(PKeyRuleContext& rc);

// pkey.index_moved, pkey.removed, pkey.membership_changed: one per changed index of a diff.
void report_index_moves(PKeyRuleContext& rc, const PKeyDiff& diff);
void report_removals(PKeyRuleContext& rc, const PKeyDiff& diff);
void report_membership_changes(PKeyRuleContext& rc, const PKeyDiff& diff);
// pkey.index_reused: one per arrival on an index another key held (previous_key).
void report_index_reuses(PKeyRuleContext& rc, const PKeyDiff& diff);

// pkey.violations_after_change: a violation counter rose within violation_window of a change.
void note_violation_rise(PKeyRuleContext& rc, const CounterTrack& counter, uint64_t rise);
// A change was just seen: violation counters that rose since the old table was last read back
// are tied to it.
void look_back_for_violations(PKeyRuleContext& rc, const PKeyDiff& diff, TimePoint old_confirmed);
TimePoint judge_violations_quiet(PKeyRuleContext& rc);

// pkey.spurious_event: a PKEY_CHANGE after which the table read the same as the cache held.
void report_spurious_event(PKeyRuleContext& rc, TimePoint event_time);

// pkey.flapping: at least flap_threshold changes within flap_window.
TimePoint judge_flapping(PKeyRuleContext& rc);

// pkey.counter_saturated: a violation counter sits at its maximum, so new violations are invisible.
void judge_counter_saturation(PKeyRuleContext& rc);

// Clears held findings whose time is up.
TimePoint expire_held_findings(PKeyRuleContext& rc);

}  // namespace rdmadiag::engine::pkey::rules
