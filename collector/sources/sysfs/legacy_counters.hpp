#pragma once
// mlx4's 64-bit counters. ConnectX-3 ports under MLNX_OFED's mlx4 driver (and kernels before 4.5)
// keep the 64-bit data and packet counters (PortCountersExtended) in ports/N/counters_ext/, while
// counters/ holds the 32-bit PortCounters fields, which saturate after 16 GiB. Each counters_ext/
// file is the standard counter it extends, so the engine sees one counter per quantity under the
// name every other driver gives it, and the 32-bit file is not read at all.

#include <cstdint>
#include <span>
#include <string_view>

namespace rdmadiag::sysfs {

inline constexpr std::string_view kLegacyCountersFolder = "counters_ext";
// Every counters_ext/ value is a PortCountersExtended field.
inline constexpr uint8_t kLegacyCounterWidth = 64;

struct LegacyCounter {
    std::string_view file;     // under counters_ext/
    std::string_view counter;  // the counters/ name of the same quantity
};

std::span<const LegacyCounter> legacy_counters();

// The counter a counters_ext/ file holds: its standard name, or the file name for a file not in
// the table (read as it is, never dropped).
std::string_view legacy_counter_name(std::string_view file);

}  // namespace rdmadiag::sysfs
