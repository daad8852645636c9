#include "collector/sources/mad/notice.hpp"

#include <algorithm>
#include <string>

#include "collector/sources/mad/mad_header.hpp"

namespace rdmadiag::mad {

namespace {

// DataDetails offsets, from the start of the details (notice byte 10).
constexpr size_t kTrap128SwitchLid = 0;
constexpr size_t kPortTrapLid = 2;  // traps 129-131, 144, 145: two reserved bytes, then the LID
constexpr size_t kTrap64Gid = 6;    // traps 64-67: six reserved bytes, then the GID
constexpr size_t kTrap144Flags = 5;
constexpr size_t kTrap144CapMask = 6;
constexpr size_t kTrap144ChangeFlags = 10;
constexpr size_t kTrap144CapMask2 = 12;

// Generic traps whose details name a port by LID, besides 144.
constexpr uint16_t kLinkIntegrityTrap = 129;
constexpr uint16_t kBufferOverrunTrap = 130;
constexpr uint16_t kWatchdogTrap = 131;
constexpr uint16_t kSystemImageGuidTrap = 145;

}  // namespace

std::optional<uint16_t> Notice::trap_number() const {
    if (!generic) return std::nullopt;
    return trap_or_device;
}

Result<Notice> decode_notice(Bytes d) {
    RDMADIAG_TRY(need_bytes(d, kNoticeSize, "Notice"));
    Notice n;
    n.generic = get_bits(d, 0, 7, 1) != 0;
    n.type = get_bits(d, 0, 0, 7);
    n.producer_or_vendor = get24(d, 1);
    n.trap_or_device = get16(d, 4);
    n.issuer_lid = get16(d, 6);
    n.toggle = get_bits(d, 8, 7, 1) != 0;
    n.count = static_cast<uint16_t>(get16(d, 8) & 0x7fff);
    std::copy_n(d.begin() + 10, kNoticeDetailsSize, n.details.begin());
    std::copy_n(d.begin() + 64, n.issuer_gid.size(), n.issuer_gid.begin());
    return n;
}

NoticeSubject notice_subject(const Notice& n) {
    NoticeSubject s;
    const auto number = n.trap_number();
    if (!number) return s;
    const Bytes details(n.details);
    switch (*number) {
        case trap::gid_in_service:
        case trap::gid_out_of_service:
            s.port_guid = get64(details, kTrap64Gid + 8);  // the GID's interface ID
            break;
        case trap::link_state_change:
            s.lid = get16(details, kTrap128SwitchLid);
            break;
        case kLinkIntegrityTrap:
        case kBufferOverrunTrap:
        case kWatchdogTrap:
        case trap::local_changes:
        case kSystemImageGuidTrap:
            s.lid = get16(details, kPortTrapLid);
            break;
        default:
            break;
    }
    if (s.lid == 0) s.lid.reset();
    return s;
}

std::optional<LocalChanges> local_changes(const Notice& n) {
    if (n.trap_number() != trap::local_changes) return std::nullopt;
    const Bytes details(n.details);
    LocalChanges c;
    c.lid = get16(details, kPortTrapLid);
    c.other_local_changes = get_bits(details, kTrap144Flags, 0, 1) != 0;
    c.capability_mask = get32(details, kTrap144CapMask);
    c.change_flags = static_cast<uint16_t>(get16(details, kTrap144ChangeFlags) & 0x3f);
    c.capability_mask2 = get16(details, kTrap144CapMask2);
    return c;
}

}  // namespace rdmadiag::mad
