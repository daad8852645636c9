#pragma once
// The Notice attribute (IBA 13.4.8.2): what a trap says, and what the SA forwards to subscribers
// in a Report. 80 bytes: IsGeneric and Type, ProducerType (or VendorID), TrapNumber (or
// DeviceID), IssuerLID, NoticeToggle and NoticeCount, 54 bytes of DataDetails laid out per trap
// number, and the IssuerGID. decode_notice takes the bytes and checks only what it reads.

#include <array>
#include <cstdint>
#include <optional>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"

namespace rdmadiag::mad {

constexpr size_t kNoticeSize = 80;
constexpr size_t kNoticeDetailsSize = 54;

// The generic trap numbers the MAD source subscribes to.
namespace trap {
constexpr uint16_t gid_in_service = 64;      // a port came into service (SM sourced)
constexpr uint16_t gid_out_of_service = 65;  // a port left service (SM sourced)
constexpr uint16_t link_state_change = 128;  // a switch port's link went up or down
constexpr uint16_t local_changes = 144;      // a port's CapabilityMask or other local attributes
}  // namespace trap

struct Notice {
    bool generic = false;
    uint8_t type = 0;                 // 0 fatal, 1 urgent, 2 security, 3 SM, 4 informational
    uint32_t producer_or_vendor = 0;  // 24 bits: ProducerType (generic) or VendorID
    uint16_t trap_or_device = 0;      // TrapNumber (generic) or DeviceID
    uint16_t issuer_lid = 0;
    bool toggle = false;
    uint16_t count = 0;  // 15 bits
    std::array<uint8_t, kNoticeDetailsSize> details{};
    std::array<uint8_t, 16> issuer_gid{};

    // The generic trap number; nothing for a vendor notice.
    std::optional<uint16_t> trap_number() const;
    bool operator==(const Notice&) const = default;
};

Result<Notice> decode_notice(Bytes data);

// What a generic notice names, from its DataDetails: the LID of the switch (128), of the port
// (129-131, 144, 145), or the port GUID that came in or left service (64, 65). Nothing for a
// trap whose details name neither.
struct NoticeSubject {
    std::optional<uint16_t> lid;
    std::optional<uint64_t> port_guid;
};
NoticeSubject notice_subject(const Notice& notice);

// Trap 144's DataDetails (as opensm's ib_types.h lays them out): LocalChanges says something other
// than the CapabilityMask changed; ChangeFlags say which (NodeDescription, LinkWidthEnabled,
// LinkSpeedEnabled, SMPriority, HierarchyInfo, CapabilityMask2 in bits 0..5).
struct LocalChanges {
    uint16_t lid = 0;
    bool other_local_changes = false;
    uint32_t capability_mask = 0;
    uint16_t change_flags = 0;
    uint16_t capability_mask2 = 0;
};
std::optional<LocalChanges> local_changes(const Notice& notice);

}  // namespace rdmadiag::mad
