#include "collector/model/counter.hpp"

#include <algorithm>

#include "collector/model/pma_counters.hpp"

namespace rdmadiag {

std::string_view to_string(CounterKind kind) {
    switch (kind) {
        case CounterKind::pma:
            return "pma";
        case CounterKind::hw:
            return "hw";
        case CounterKind::portinfo:
            return "portinfo";
    }
    return "pma";
}

std::optional<CounterKind> parse_counter_kind(std::string_view text) {
    for (auto k : {CounterKind::pma, CounterKind::hw, CounterKind::portinfo}) {
        if (to_string(k) == text) return k;
    }
    return std::nullopt;
}

uint8_t counter_width(CounterKind kind, std::string_view name) {
    // A counter PortCountersExtended also carries is as wide as sysfs shows it from there.
    uint8_t widest = 0;
    for (const auto& c : pma_counters()) {
        if (c.kind == kind && c.name == name) widest = std::max(widest, c.bits);
    }
    if (widest != 0) return widest;
    // Every PortInfo violation counter is 16 bits wide.
    return kind == CounterKind::portinfo ? 16 : 64;
}

bool is_pkey_violation_counter(std::string_view name) {
    return std::ranges::any_of(pma_counters(), [name](const PmaCounterInfo& c) {
        return c.pkey_violation && c.name == name;
    });
}

bool is_link_error_counter(std::string_view name) {
    return std::ranges::any_of(
        pma_counters(), [name](const PmaCounterInfo& c) { return c.link_error && c.name == name; });
}

}  // namespace rdmadiag
