#pragma once
// How often each counter is worth reading. Every read of a PMA counter is a query to the device's
// firmware, so only the counters that need it are read on the fast cadence: those a finding is
// built on, and the narrow error counters that saturate after a handful of events. The data and
// packet counters, port_xmit_wait and every driver hw counter are read on the slow cadence.
// Where each narrow counter is its own read (a sysfs file, one firmware query each), a source
// reads the narrow ones on the fast cadence only while they move (narrow_fast_hold).
// The tier of each counter is in the counter table (collector/model/pma_counters.hpp);
// docs/metrics.md has the table with each counter's reason.

#include <optional>
#include <span>
#include <string_view>

#include "collector/model/counter.hpp"
#include "collector/model/pma_counters.hpp"

namespace rdmadiag::sources {

enum class CounterTier : uint8_t {
    fast,  // --interval.counters (default 1 s), with the port state
    slow,  // --interval.slow-counters (default 15 s)
};

std::string_view to_string(CounterTier tier);

// Why a counter sits in the fast tier: the counter table's (collector/model/pma_counters.hpp).
using rdmadiag::FastReason;

struct FastCounter {
    CounterKind kind;
    std::string_view name;
    FastReason reason;
};

// Every fast counter; anything not listed (data and packet counters, port_xmit_wait, hw
// counters, counters rdmadiag does not know) is slow.
std::span<const FastCounter> fast_counters();

CounterTier counter_tier(CounterKind kind, std::string_view name);
// Why a counter is fast; nullopt for a slow one.
std::optional<FastReason> fast_reason(CounterKind kind, std::string_view name);

// False when no counter of that kind is fast: a pass over the fast tier need not even list the
// folder that holds them (hw_counters/).
bool kind_has_fast_counters(CounterKind kind);

// Which tiers a pass reads.
struct CounterTiers {
    bool fast = false;
    bool slow = false;

    static constexpr CounterTiers all() { return {true, true}; }
    bool any() const { return fast || slow; }
    bool covers(CounterTier tier) const { return tier == CounterTier::fast ? fast : slow; }
    bool covers(CounterKind kind, std::string_view name) const {
        return covers(counter_tier(kind, name));
    }
    // Whether any counter of `kind` can be due: false means its folder need not be listed, nor
    // its counter method asked.
    bool reads(CounterKind kind) const { return slow || (fast && kind_has_fast_counters(kind)); }
};

}  // namespace rdmadiag::sources
