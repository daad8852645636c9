#include "collector/sources/counter_tiers.hpp"

#include <array>

namespace rdmadiag::sources {

namespace {

using enum FastReason;

// Keep docs/metrics.md ("Counter tiers") in step with this table.
constexpr std::array<FastCounter, 16> kFastCounters{{
    // PortCounters error fields (sysfs counters/, PMA MADs). They saturate rather than wrap, so a
    // count lost to saturation cannot be recovered by reading sooner; reading every second means
    // a saturation is seen within a second, and a clear by a performance manager (perfquery -R,
    // OpenSM's PerfMgr) loses at most one second of events.
    {CounterKind::pma, "symbol_error", narrow},                     // 16 bits
    {CounterKind::pma, "link_error_recovery", narrow},              // 8 bits
    {CounterKind::pma, "link_downed", narrow},                      // 8 bits
    {CounterKind::pma, "port_rcv_errors", narrow},                  // 16 bits
    {CounterKind::pma, "port_rcv_remote_physical_errors", narrow},  // 16 bits
    {CounterKind::pma, "port_rcv_switch_relay_errors", narrow},     // 16 bits
    {CounterKind::pma, "port_xmit_discards", narrow},               // 16 bits
    {CounterKind::pma, "port_xmit_constraint_errors", finding},     // 8 bits
    {CounterKind::pma, "port_rcv_constraint_errors", finding},      // 8 bits
    {CounterKind::pma, "local_link_integrity_errors", narrow},      // 4 bits
    {CounterKind::pma, "excessive_buffer_overrun_errors", narrow},  // 4 bits
    {CounterKind::pma, "VL15_dropped", narrow},                     // 16 bits
    {CounterKind::pma, "vl15_dropped", narrow},  // the spelling counter_width() also knows
    // PortInfo violation counters (MAD source), 16 bits each.
    {CounterKind::portinfo, "p_key_violations", finding},
    {CounterKind::portinfo, "q_key_violations", narrow},
    {CounterKind::portinfo, "m_key_violations", narrow},
}};

}  // namespace

std::string_view to_string(CounterTier tier) {
    return tier == CounterTier::fast ? "fast" : "slow";
}

std::span<const FastCounter> fast_counters() {
    return kFastCounters;
}

std::optional<FastReason> fast_reason(CounterKind kind, std::string_view name) {
    for (const auto& c : kFastCounters) {
        if (c.kind == kind && c.name == name) return c.reason;
    }
    return std::nullopt;
}

CounterTier counter_tier(CounterKind kind, std::string_view name) {
    return fast_reason(kind, name) ? CounterTier::fast : CounterTier::slow;
}

bool kind_has_fast_counters(CounterKind kind) {
    for (const auto& c : kFastCounters) {
        if (c.kind == kind) return true;
    }
    return false;
}

}  // namespace rdmadiag::sources
