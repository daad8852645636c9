#pragma once
// Pure parsers of two RDMA netlink resource dumps of one device: its QPs
// (RDMA_NLDEV_CMD_RES_QP_GET, what `rdma resource show qp` lists) and its RDMA CM IDs
// (RDMA_NLDEV_CMD_RES_CM_ID_GET, `rdma resource show cm_id`). Attribute types and widths are
// those of <rdma/rdma_netlink.h>; the values of QP types, QP states, CM states and port spaces
// are the kernel's enums (ib_qp_type, ib_qp_state, rdma_cm_state, rdma_ucm_port_space).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::netlink {

// Who holds a resource: a process (its pid, as the asking socket's namespace sees it) or a kernel
// ULP (its name). Neither: the kernel found the task gone while the resource lives on.
struct NlResOwner {
    std::optional<uint32_t> pid;
    std::string kernel_name;
    bool operator==(const NlResOwner&) const = default;
};

struct NlQp {
    uint32_t qpn = 0;
    // Absent until the QP is bound to a port (a QP in RESET; 5.10 lists its GSI QP without one).
    std::optional<uint32_t> port;
    uint8_t type = 0;   // enum ib_qp_type
    uint8_t state = 0;  // enum ib_qp_state
    std::optional<uint32_t> pdn;
    NlResOwner owner;
    bool operator==(const NlQp&) const = default;
};

// A socket address as the kernel keeps it (struct __kernel_sockaddr_storage): AF_INET, AF_INET6
// or AF_IB (struct sockaddr_ib, which carries the P_Key and the GID itself).
struct NlSockAddr {
    uint16_t family = 0;
    // IPv6 and AF_IB as they are; IPv4 as ::ffff:a.b.c.d, the form RoCE makes its GID of.
    std::array<uint8_t, 16> address{};
    uint16_t port = 0;                // IP port, host order; 0 for AF_IB
    std::optional<uint16_t> pkey;     // AF_IB's sib_pkey
    std::optional<uint64_t> service;  // AF_IB's service ID
    bool operator==(const NlSockAddr&) const = default;
};
// "192.0.2.1:7471", "[fe80::1]:7471", "fe80:0000:...:1235 pkey 0xffff sid 0x...", as text.
std::string to_string(const NlSockAddr& a);
// Whether the address is the wildcard (family 0, 0.0.0.0, ::, a zero GID), whatever its port: a
// listener bound to every address.
bool is_unspecified(const NlSockAddr& a);

struct NlCmId {
    uint32_t id = 0;  // cm_idn
    std::optional<uint32_t> port;
    uint32_t port_space = 0;  // enum rdma_ucm_port_space
    uint8_t state = 0;        // enum rdma_cm_state
    std::optional<uint32_t> qpn;
    std::optional<uint8_t> qp_type;
    std::optional<NlSockAddr> source;
    std::optional<NlSockAddr> destination;
    NlResOwner owner;
    bool operator==(const NlCmId&) const = default;
};

template <class T>
struct NlResDump {
    std::vector<T> entries;
    // False when the kernel flagged the dump as interrupted, or an entry came without its number:
    // what is missing from `entries` then proves nothing.
    bool complete = true;
};

Result<NlResDump<NlQp>> parse_nl_qp_dump(std::span<const uint8_t> bytes);
Result<NlResDump<NlCmId>> parse_nl_cm_id_dump(std::span<const uint8_t> bytes);

// The names iproute2's rdma tool prints: "RC", "RTS", "LISTEN", "TCP"; "UNKNOWN" for a value
// beyond the enum.
std::string_view qp_type_name(uint8_t type);
std::string_view qp_state_name(uint8_t state);
std::string_view cm_state_name(uint8_t state);
std::string_view port_space_name(uint32_t port_space);

}  // namespace rdmadiag::netlink
