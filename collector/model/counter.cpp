#include "collector/model/counter.hpp"

#include <array>
#include <utility>

namespace rdmadiag {

std::string_view to_string(CounterKind kind) {
    switch (kind) {
        case CounterKind::pma: return "pma";
        case CounterKind::hw: return "hw";
        case CounterKind::portinfo: return "portinfo";
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
    // IBA PortCounters field widths (sysfs counters/ file names) and PortInfo violation counters.
    static constexpr std::array<std::pair<std::string_view, uint8_t>, 19> kPma{{
        {"symbol_error", 16},
        {"link_error_recovery", 8},
        {"link_downed", 8},
        {"port_rcv_errors", 16},
        {"port_rcv_remote_physical_errors", 16},
        {"port_rcv_switch_relay_errors", 16},
        {"port_xmit_discards", 16},
        {"port_xmit_constraint_errors", 8},
        {"port_rcv_constraint_errors", 8},
        {"local_link_integrity_errors", 4},
        {"excessive_buffer_overrun_errors", 4},
        {"VL15_dropped", 16},
        {"vl15_dropped", 16},
        {"port_xmit_wait", 32},
        // The kernel reads the data and packet counters from PortCountersExtended when the PMA
        // has it, so they are 64 bits wide as sysfs shows them.
        {"port_xmit_data", 64},
        {"port_rcv_data", 64},
        {"port_xmit_packets", 64},
        {"port_rcv_packets", 64},
        {"unicast_xmit_packets", 64},
    }};
    switch (kind) {
        case CounterKind::pma:
            for (const auto& [n, w] : kPma) {
                if (n == name) return w;
            }
            return 64;
        case CounterKind::portinfo:
            return 16;  // M_KeyViolations, P_KeyViolations, Q_KeyViolations
        case CounterKind::hw:
            return 64;
    }
    return 64;
}

bool is_pkey_violation_counter(std::string_view name) {
    return name == "p_key_violations" || name == "port_rcv_constraint_errors" ||
           name == "port_xmit_constraint_errors";
}

}  // namespace rdmadiag
