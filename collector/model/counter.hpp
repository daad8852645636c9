#pragma once
// Hardware counters and their widths. IB PMA counters are narrow and saturate; rdmadiag has to
// know each one's width to tell "saturated" from "quiet" and a wrap from a reset.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rdmadiag {

enum class CounterKind : uint8_t {
    pma,       // PortCounters / PortCountersExtended (sysfs counters/, PMA MADs)
    hw,        // driver-specific hw_counters/
    portinfo,  // PortInfo M_Key/P_Key/Q_Key violation counters
};

std::string_view to_string(CounterKind kind);
std::optional<CounterKind> parse_counter_kind(std::string_view text);

// Width in bits of a counter as the hardware keeps it (collector/model/pma_counters.hpp). Unknown
// names are taken as 64 bits wide.
uint8_t counter_width(CounterKind kind, std::string_view name);

constexpr uint64_t counter_max(uint8_t width_bits) {
    return width_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << width_bits) - 1;
}

// The counters an operator watches for P_Key trouble.
bool is_pkey_violation_counter(std::string_view name);
// The link and receive error counters a port's summary adds up.
bool is_link_error_counter(std::string_view name);

}  // namespace rdmadiag
