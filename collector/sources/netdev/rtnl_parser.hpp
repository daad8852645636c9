#pragma once
// Pure parsers of rtnetlink (NETLINK_ROUTE) dumps: the links (RTM_GETLINK) and the addresses
// (RTM_GETADDR) of the network namespace, as plain structs, and the request bytes for both. Every
// length is checked against what is left, so a malformed or cut reply is an error, never a read
// past the buffer.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::netdev {

struct Link {
    int32_t index = 0;
    std::string name;                           // IFLA_IFNAME
    uint16_t type = 0;                          // ARPHRD_*
    uint32_t flags = 0;                         // IFF_*
    std::optional<std::array<uint8_t, 6>> mac;  // IFLA_ADDRESS, when it is 6 bytes
    // IFLA_LINK: the lower device of a VLAN, macvlan, ...; absent when it is the link itself or
    // names a device of another network namespace (IFLA_LINK_NETNSID).
    std::optional<int32_t> link;
    std::optional<int32_t> master;  // IFLA_MASTER: the bond, bridge, team, VRF
    std::string kind;               // IFLA_LINKINFO/IFLA_INFO_KIND: "vlan", "bond"
    // A bond's IFLA_BOND_ACTIVE_SLAVE: the kernel puts it exactly when the bond has a current
    // active slave (bond_option_active_slave_get_rcu(): active-backup, tlb, alb).
    std::optional<int32_t> bond_active_slave;
    // An IPoIB interface (kind "ipoib", the kernel's ipoib_netlink.c): IFLA_IPOIB_PKEY with its
    // membership bit, IFLA_IPOIB_MODE (0 datagram: UD QPs; 1 connected: RC QPs) and
    // IFLA_IPOIB_UMCAST.
    struct Ipoib {
        uint16_t pkey = 0;
        uint16_t mode = 0;
        bool umcast = false;
        bool operator==(const Ipoib&) const = default;
    };
    std::optional<Ipoib> ipoib;
    // IFLA_ADDRESS of an InfiniBand link, 20 bytes: a flags byte and the 24-bit QPN of the
    // interface's UD QP, then the port GID it sends from.
    std::optional<std::array<uint8_t, 20>> ib_address;
    std::optional<bool> carrier;  // IFLA_CARRIER
    // IFLA_CARRIER_CHANGES: how often the carrier went up or down since the link was made, so a
    // bounce between two readings still shows.
    std::optional<uint32_t> carrier_changes;
    std::optional<uint8_t> operstate;  // IFLA_OPERSTATE (IF_OPER_*: 6 up, 2 down, 5 dormant, ...)

    bool up() const;
    bool operator==(const Link&) const = default;
};

struct Address {
    int32_t index = 0;   // the link's ifindex
    uint8_t family = 0;  // AF_INET, AF_INET6
    uint8_t prefix = 0;
    // IFA_ADDRESS and IFA_LOCAL (4 bytes used for IPv4). On a point-to-point link IPv4's
    // IFA_ADDRESS is the peer, IPv6's IFA_LOCAL the address and IFA_ADDRESS the peer.
    std::optional<std::array<uint8_t, 16>> address;
    std::optional<std::array<uint8_t, 16>> local;
    uint32_t flags =
        0;  // IFA_F_*: IFA_FLAGS when present (it has the bits above 8), else ifa_flags

    bool tentative() const;
    bool dad_failed() const;
    bool operator==(const Address&) const = default;
};

Result<std::vector<Link>> parse_link_dump(std::span<const uint8_t> bytes);
Result<std::vector<Address>> parse_address_dump(std::span<const uint8_t> bytes);

std::vector<uint8_t> link_dump_request(uint32_t seq);
std::vector<uint8_t> address_dump_request(uint32_t seq);  // every family

}  // namespace rdmadiag::netdev
