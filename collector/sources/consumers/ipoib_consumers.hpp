#pragma once
// The IPoIB interfaces among rtnetlink's links, as consumers of the port they send from.
//
// An IPoIB link (kind "ipoib", the kernel's ipoib_netlink.c) names its P_Key, its mode and, in
// its 20-byte hardware address, the GID it sends from: GID 0 of its port, which is the subnet
// prefix and the port GUID. The port is found by that GUID, which a subnet prefix change leaves
// as it is. A child's parent is the link IFLA_LINK names. Both modes keep a UD QP (connected mode
// sends multicast and broadcast on it), so every IPoIB interface is a UD consumer.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collector/model/consumer.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/sources/netdev/rtnl_parser.hpp"

namespace rdmadiag::consumers {

struct IpoibListing {
    std::vector<Consumer> consumers;  // those whose port was found, in link order
    // "ib1: sends from GUID 0x0002c90300001236, which no port has"
    std::vector<std::string> unplaced;
};

// `ports_by_guid`: every port's GUID (the interface ID of its GID 0).
IpoibListing ipoib_consumers(const std::vector<netdev::Link>& links,
                             const std::map<uint64_t, PortRef>& ports_by_guid);

// RFC 2863 operational state as `ip link` prints it: "UP", "DOWN", "LOWERLAYERDOWN", ...
std::string operstate_name(uint8_t operstate);

}  // namespace rdmadiag::consumers
