#include "collector/sources/counter_tiers.hpp"

#include <algorithm>
#include <array>

#include "collector/model/pma_counters.hpp"

namespace rdmadiag::sources {

namespace {

constexpr size_t kFastCount = static_cast<size_t>(std::ranges::count_if(
    pma_counters(), [](const PmaCounterInfo& c) { return c.fast.has_value(); }));

// The fast column of the counter table, gathered once.
constexpr std::array<FastCounter, kFastCount> gather_fast_counters() {
    std::array<FastCounter, kFastCount> out{};
    size_t n = 0;
    for (const auto& c : pma_counters()) {
        if (c.fast) out[n++] = FastCounter{c.kind, c.name, *c.fast};
    }
    return out;
}

constexpr auto kFastCounters = gather_fast_counters();

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
