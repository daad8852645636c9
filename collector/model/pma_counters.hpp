#pragma once
// The counters of the IBA performance attributes, each described once: where its attribute keeps
// it, how wide it is, how often it is worth reading and what an operator reads it for. The MAD
// source decodes replies by this table, widths and tiers are taken from it, and the summaries
// count from it, so no two readers can disagree about a counter. Names are the kernel's sysfs
// counters/ file names, so that the sysfs and MAD sources report one counter under one name.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "collector/model/counter.hpp"

namespace rdmadiag {

// Where the PMA (or the SMA) keeps a counter.
enum class PmaAttribute : uint8_t {
    port_counters,      // PortCounters (IBA 16.1.3.5)
    port_counters_ext,  // PortCountersExtended (IBA 16.1.4.11)
    port_info,          // PortInfo's M_Key, P_Key and Q_Key violation counters (IBA 14.2.5.6)
    no_attribute,       // another spelling of a counter, decoded from no attribute
};

// What a reply must have said for a field to be there (ClassPortInfo's CapabilityMask).
enum class PmaCondition : uint8_t {
    always,
    xmit_wait,  // PortXmitWait supported (CapabilityMask bit 12)
    ietf,       // PortCountersExtended with all its counters, not data and packets only (bit 10)
};

// Why a counter is read on the fast cadence (collector/sources/counter_tiers.hpp).
enum class FastReason : uint8_t {
    finding,  // an engine rule reads it (pkey.violations_after_change, pkey.counter_saturated)
    narrow,   // 4, 8 or 16 bits: saturates after a few events, and every event counts
};

struct PmaCounterInfo {
    CounterKind kind;
    std::string_view name;
    PmaAttribute attribute;
    uint8_t offset;  // byte of the attribute data it starts at
    uint8_t shift;   // for a field narrower than a byte: its lowest bit within that byte
    uint8_t bits;    // its width in the attribute
    PmaCondition condition = PmaCondition::always;
    std::optional<FastReason> fast;  // nullopt: the slow tier
    bool link_error = false;         // counted among a port's errors in summaries
    bool pkey_violation = false;     // counted among a port's P_Key violations
};

namespace pma_detail {

using enum CounterKind;
using enum PmaAttribute;
using enum FastReason;
constexpr auto kXmitWait = PmaCondition::xmit_wait;
constexpr auto kIetf = PmaCondition::ietf;
constexpr auto kAlways = PmaCondition::always;

// Keep docs/metrics.md ("Counter tiers") in step with the fast column. The PortCounters error
// fields saturate rather than wrap, so a count lost to saturation cannot be recovered by reading
// sooner; reading them every second means a saturation is seen within a second, and a clear by a
// performance manager (perfquery -R, OpenSM's PerfMgr) loses at most one second of events.
// The summaries' errors leave out the remote physical and switch relay errors, which count
// packets others marked bad or could not route, not this link's faults.
inline constexpr std::array<PmaCounterInfo, 29> kPmaCounters{{
    {pma, "symbol_error", port_counters, 4, 0, 16, kAlways, narrow, true},
    {pma, "link_error_recovery", port_counters, 6, 0, 8, kAlways, narrow, true},
    {pma, "link_downed", port_counters, 7, 0, 8, kAlways, narrow, true},
    {pma, "port_rcv_errors", port_counters, 8, 0, 16, kAlways, narrow, true},
    {pma, "port_rcv_remote_physical_errors", port_counters, 10, 0, 16, kAlways, narrow},
    {pma, "port_rcv_switch_relay_errors", port_counters, 12, 0, 16, kAlways, narrow},
    {pma, "port_xmit_discards", port_counters, 14, 0, 16, kAlways, narrow, true},
    {pma, "port_xmit_constraint_errors", port_counters, 16, 0, 8, kAlways, finding, false, true},
    {pma, "port_rcv_constraint_errors", port_counters, 17, 0, 8, kAlways, finding, false, true},
    {pma, "local_link_integrity_errors", port_counters, 19, 4, 4, kAlways, narrow, true},
    {pma, "excessive_buffer_overrun_errors", port_counters, 19, 0, 4, kAlways, narrow, true},
    {pma, "VL15_dropped", port_counters, 22, 0, 16, kAlways, narrow, true},
    {pma, "port_xmit_data", port_counters, 24, 0, 32},
    {pma, "port_rcv_data", port_counters, 28, 0, 32},
    {pma, "port_xmit_packets", port_counters, 32, 0, 32},
    {pma, "port_rcv_packets", port_counters, 36, 0, 32},
    {pma, "port_xmit_wait", port_counters, 40, 0, 32, kXmitWait},
    // The summaries have only ever counted the kernel's spelling.
    {pma, "vl15_dropped", no_attribute, 0, 0, 16, kAlways, narrow},
    // The kernel reads the data and packet counters from here when the PMA has it, so sysfs
    // shows them 64 bits wide.
    {pma, "port_xmit_data", port_counters_ext, 8, 0, 64},
    {pma, "port_rcv_data", port_counters_ext, 16, 0, 64},
    {pma, "port_xmit_packets", port_counters_ext, 24, 0, 64},
    {pma, "port_rcv_packets", port_counters_ext, 32, 0, 64},
    {pma, "unicast_xmit_packets", port_counters_ext, 40, 0, 64, kIetf},
    {pma, "unicast_rcv_packets", port_counters_ext, 48, 0, 64, kIetf},
    {pma, "multicast_xmit_packets", port_counters_ext, 56, 0, 64, kIetf},
    {pma, "multicast_rcv_packets", port_counters_ext, 64, 0, 64, kIetf},
    {portinfo, "m_key_violations", port_info, 44, 0, 16, kAlways, narrow},
    {portinfo, "p_key_violations", port_info, 46, 0, 16, kAlways, finding, false, true},
    {portinfo, "q_key_violations", port_info, 48, 0, 16, kAlways, narrow},
}};

}  // namespace pma_detail

// Every counter described here, in the order of its attribute's layout.
constexpr std::span<const PmaCounterInfo> pma_counters() {
    return pma_detail::kPmaCounters;
}

namespace pma_detail {

// Whether each attribute's rows sit together in the table, so that one attribute's fields are a
// slice of it.
constexpr bool attributes_are_grouped() {
    const auto all = pma_counters();
    for (size_t i = 0; i < all.size(); ++i) {
        for (size_t j = i + 2; j < all.size(); ++j) {
            if (all[j].attribute == all[i].attribute && all[j - 1].attribute != all[i].attribute)
                return false;
        }
    }
    return true;
}
static_assert(attributes_are_grouped(), "keep each attribute's rows together in kPmaCounters");

}  // namespace pma_detail

// The fields of one attribute, in layout order (a slice of the table, which keeps each
// attribute's rows together).
constexpr std::span<const PmaCounterInfo> pma_counters_of(PmaAttribute attribute) {
    const auto all = pma_counters();
    size_t first = 0;
    while (first < all.size() && all[first].attribute != attribute) ++first;
    size_t end = first;
    while (end < all.size() && all[end].attribute == attribute) ++end;
    return all.subspan(first, end - first);
}

// The first entry of that kind and name (the narrower PortCounters field for a data counter);
// nullptr for a counter not described here.
constexpr const PmaCounterInfo* find_pma_counter(CounterKind kind, std::string_view name) {
    const auto all = pma_counters();
    const auto it = std::ranges::find_if(
        all, [&](const PmaCounterInfo& c) { return c.kind == kind && c.name == name; });
    return it == all.end() ? nullptr : &*it;
}

}  // namespace rdmadiag
