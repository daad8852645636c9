#pragma once
// GID facts (IBA 4.1.1): 128 bits, a 64-bit subnet prefix then a 64-bit interface ID. On
// InfiniBand, GID 0 of a port is the SM's subnet prefix and the port GUID, and further indexes hold
// the prefix with the alias GUIDs the SM assigned (GUIDInfo). On RoCE every GID stands for an
// address of the port's netdev (or one of its upper devices): a link-local one made from the MAC,
// an IPv4 address as ::ffff:a.b.c.d, an IPv6 address as itself; RoCE v1 and v2 each have an entry.

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag {

struct Gid {
    std::array<uint8_t, 16> raw{};

    static Gid from_parts(uint64_t prefix, uint64_t interface_id);
    bool is_zero() const;
    uint64_t prefix() const;        // the high 64 bits: the subnet prefix on InfiniBand
    uint64_t interface_id() const;  // the low 64 bits: the port GUID for an IB GID 0
    // "fe80:0000:0000:0000:0002:c903:0000:1235", as the kernel prints GIDs in sysfs.
    std::string to_string() const;
    bool operator==(const Gid&) const = default;
    auto operator<=>(const Gid&) const = default;
};
// The sysfs form above, or any IPv6 text form ("fe80::2:c903:0:1235", "::ffff:10.0.0.1").
Result<Gid> parse_gid(std::string_view text);
// The GID RoCE makes of an IPv4 address (host order): ::ffff:a.b.c.d.
Gid gid_from_ipv4(uint32_t address);
// The GID RoCE makes of an address in text: "192.0.2.1" (::ffff:192.0.2.1) or any IPv6 form.
Result<Gid> gid_from_address(std::string_view text);
// The link-local GID made from a 48-bit MAC (modified EUI-64), RoCE's default GID.
Gid gid_from_mac(const std::array<uint8_t, 6>& mac);
// "52:54:00:12:34:56"
Result<std::array<uint8_t, 6>> parse_mac(std::string_view text);
std::string format_subnet_prefix(uint64_t prefix);  // "fe80:0000:0000:0000"
// "fe80:0000:0000:0000" (four groups) or an IPv6 form whose low 64 bits are zero ("fec0::").
Result<uint64_t> parse_subnet_prefix(std::string_view text);
std::string format_guid(uint64_t guid);  // "0x0002c90300001235"

enum class GidType : uint8_t { ib, roce_v1, roce_v2, unknown };
std::string_view to_string(GidType type);  // "IB", "RoCE v1", "RoCE v2" as sysfs prints them
std::optional<GidType> parse_gid_type(std::string_view text);

// The views of one port's GIDs that rdmadiag keeps apart.
enum class GidView : uint8_t {
    cache,   // the kernel's GID cache, as sysfs gids/ and gid_attrs/ serve it
    sma,     // what the port holds: PortInfo.GidPrefix with its GUIDs, read over MADs
    sm,      // what the subnet manager holds: the SA's PortInfoRecord and GUIDInfoRecord
    netdev,  // RoCE: the GIDs the addresses of the port's netdev imply (rtnetlink)
};
constexpr GidView kAllGidViews[] = {GidView::cache, GidView::sma, GidView::sm, GidView::netdev};
std::string_view to_string(GidView view);
std::optional<GidView> parse_gid_view(std::string_view text);

struct GidEntry {
    uint16_t index = 0;  // the table index (netdev view: the entries' order)
    Gid gid;
    GidType type = GidType::ib;
    std::string ndev;  // RoCE: the netdev the GID belongs to
    bool operator==(const GidEntry&) const = default;
};

// A port's GIDs as one source read them: the non-zero entries, by index. An index whose value
// could not be read is listed in `unreadable`.
struct GidTable {
    std::vector<GidEntry> entries;
    std::vector<uint16_t> unreadable;

    bool complete() const { return unreadable.empty(); }
    const GidEntry* at(uint16_t index) const;
    bool operator==(const GidTable&) const = default;
};

}  // namespace rdmadiag
