#pragma once
// An RDMA netlink port dump (RDMA_NLDEV_CMD_PORT_GET) laid out as the kernel lays it out, built
// from the parser's own struct, so that what is built parses back to the same ports.

#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <vector>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"

namespace rdmadiag::test {

inline std::vector<uint8_t> port_dump(const std::vector<netlink::NlPort>& ports) {
    NlBuilder b;
    for (const auto& p : ports) {
        b.begin(RDMA_NLDEV_CMD_PORT_GET)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.device_index)
            .str(RDMA_NLDEV_ATTR_DEV_NAME, p.device)
            .u32(RDMA_NLDEV_ATTR_PORT_INDEX, p.port);
        if (p.ndev_index) {
            b.u32(RDMA_NLDEV_ATTR_NDEV_INDEX, *p.ndev_index)
                .str(RDMA_NLDEV_ATTR_NDEV_NAME, p.ndev_name);
        }
        b.end();
    }
    return b.done().bytes();
}

}  // namespace rdmadiag::test
