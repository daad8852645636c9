#pragma once
// Decoders for the PMA attributes rdmadiag reads (IBA 16.1.3): ClassPortInfo (which says whether
// PortCountersExtended exists), PortCounters with each counter's hardware width, and
// PortCountersExtended. Their layouts are the counter table's (collector/model/pma_counters.hpp).

#include <cstdint>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"

namespace rdmadiag::mad {

struct PmaClassPortInfo {
    uint8_t base_version = 0;
    uint8_t class_version = 0;
    uint16_t capability_mask = 0;
    uint32_t capability_mask2 = 0;
    uint8_t resp_time_value = 0;
    bool operator==(const PmaClassPortInfo&) const = default;
};

// CapabilityMask bits of the PMA ClassPortInfo.
constexpr uint16_t kPmaExtendedWidth = 1u << 9;         // PortCountersExtended, all 64-bit
constexpr uint16_t kPmaExtendedWidthNoIetf = 1u << 10;  // PortCountersExtended, data/packets only
constexpr uint16_t kPmaXmitWait = 1u << 12;

inline bool has_port_counters_ext(const PmaClassPortInfo& info) {
    return (info.capability_mask & (kPmaExtendedWidth | kPmaExtendedWidthNoIetf)) != 0;
}

// One counter as decoded: its sysfs-style name, value and width in bits.
struct PmaCounter {
    std::string_view name;
    uint64_t value = 0;
    uint8_t width = 0;
    bool operator==(const PmaCounter&) const = default;
};

Result<PmaClassPortInfo> decode_pma_class_port_info(Bytes data);
// PortCounters. xmit_wait says whether PortXmitWait is supported (ClassPortInfo bit 12).
Result<std::vector<PmaCounter>> decode_port_counters(Bytes data, bool xmit_wait = true);
// PortCountersExtended; with no_ietf only the data and packet counters are present.
Result<std::vector<PmaCounter>> decode_port_counters_ext(Bytes data, bool no_ietf = false);

// The PortSelect field a request for one port carries (byte 1 of PortCounters[Extended]).
std::vector<uint8_t> port_select_payload(uint8_t port);

}  // namespace rdmadiag::mad
