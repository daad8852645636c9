#pragma once
// The GIDs the kernel's RoCE GID management (drivers/infiniband/core/roce_gid_mgmt.c) holds for
// one port, worked out from the links and addresses rtnetlink shows: one entry per GID and
// netdev, whatever the GID types (the kernel writes each once per RoCE type the port supports),
// type GidType::unknown, indexed in order. Pure: the same tables give the same table.

#include <cstdint>
#include <vector>

#include "collector/model/gid.hpp"
#include "collector/sources/netdev/rtnl_parser.hpp"

namespace rdmadiag::netdev {

// The GIDs for a port whose netdev has ifindex `port_netdev`; empty when that link is unknown.
GidTable kernel_roce_gids(int32_t port_netdev, const std::vector<Link>& links,
                          const std::vector<Address>& addresses);

}  // namespace rdmadiag::netdev
