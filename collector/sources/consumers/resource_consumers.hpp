#pragma once
// RDMA netlink's QPs and RDMA CM IDs of one device as consumers of its ports.
//
// QPs carry no P_Key index the kernel exports, so they are counted: per port, type and owner,
// with the owners that hold the most QPs on the device named and the rest counted as "other", so
// a host with thousands of QPs gives a bounded list. A CM ID is listed one by one with its source
// address: an AF_IB address holds its P_Key and GID; an IP address on an IPoIB interface takes
// that interface's P_Key and GID (the kernel binds the ID through it); on RoCE the GID is the
// address itself (IPv4 as ::ffff:a.b.c.d).

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/model/consumer.hpp"
#include "collector/sources/netlink/res_dump_parser.hpp"

namespace rdmadiag::consumers {

// A process's name (its /proc/PID/comm), or nullopt when no such process is seen from here.
using CommOf = std::function<std::optional<std::string>(uint32_t pid)>;

ConsumerOwner owner_of(const netlink::NlResOwner& owner, const CommOf& comm);

inline constexpr size_t kDefaultTopOwners = 10;
inline constexpr std::string_view kOtherOwners = "other";

std::vector<Consumer> qp_consumers(const std::string& device, const std::vector<netlink::NlQp>& qps,
                                   const CommOf& comm, size_t top_owners = kDefaultTopOwners);

// The interface an IP address belongs to, when it is an IPoIB one.
struct IpoibAddress {
    std::string interface;
    uint16_t pkey = 0;
    std::optional<Gid> gid;
};
// By address: IPv4 as ::ffff:a.b.c.d, IPv6 as itself.
using IpoibAddressOf = std::function<std::optional<IpoibAddress>(const std::array<uint8_t, 16>&)>;

// `protocol`: the device's, as RDMA netlink names it ("ib", "roce", "iw").
std::vector<Consumer> cm_id_consumers(const std::string& device, std::string_view protocol,
                                      const std::vector<netlink::NlCmId>& ids, const CommOf& comm,
                                      const IpoibAddressOf& ipoib_address);

}  // namespace rdmadiag::consumers
