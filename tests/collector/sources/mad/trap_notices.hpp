#pragma once
// Notice bytes for the trap tests, laid out field by field as the Notice attribute is: byte 0
// IsGeneric (bit 7) and Type, 1..3 ProducerType, 4..5 TrapNumber, 6..7 IssuerLID, 8..9
// NoticeToggle and NoticeCount, 10..63 DataDetails, 64..79 IssuerGID.

#include <array>
#include <cstdint>

#include "collector/sources/mad/mad_bytes.hpp"
#include "collector/sources/mad/notice.hpp"

namespace rdmadiag::mad::test {

inline std::array<uint8_t, kNoticeSize> generic_notice(uint8_t type, uint32_t producer,
                                                       uint16_t trap_number, uint16_t issuer) {
    std::array<uint8_t, kNoticeSize> n{};
    n[0] = static_cast<uint8_t>(0x80 | type);
    n[1] = static_cast<uint8_t>(producer >> 16);
    put16(n, 2, static_cast<uint16_t>(producer));
    put16(n, 4, trap_number);
    put16(n, 6, issuer);
    return n;
}

// Trap 128 as a switch sends it: urgent, producer switch (2), its LID in the details.
inline std::array<uint8_t, kNoticeSize> link_state_notice(uint16_t switch_lid) {
    auto n = generic_notice(1, 2, trap::link_state_change, switch_lid);
    put16(n, 10, switch_lid);
    return n;
}

// Trap 144 from a CA port: informational, producer CA (1); LID, then the new CapabilityMask.
inline std::array<uint8_t, kNoticeSize> local_changes_notice(uint16_t lid, uint32_t cap_mask,
                                                             uint16_t change_flags) {
    auto n = generic_notice(4, 1, trap::local_changes, lid);
    put16(n, 12, lid);
    n[15] = change_flags != 0 ? 1 : 0;
    put32(n, 16, cap_mask);
    put16(n, 20, change_flags);
    return n;
}

}  // namespace rdmadiag::mad::test
