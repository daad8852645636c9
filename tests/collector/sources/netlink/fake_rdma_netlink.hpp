#pragma once
// A kernel's RDMA netlink as a transport: it answers the device dump and RDMA_NLDEV_CMD_STAT_GET
// for the ports it has statistics of, with bytes laid out as the kernel lays them out
// (NlBuilder), and counts what it was asked. A port it has no statistics for gets EINVAL, as
// nldev answers.

#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "collector/sources/netlink/netlink_source.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"

namespace rdmadiag::test {

struct FakeRdmaNetlink {
    struct Device {
        uint32_t index = 0;
        std::map<uint32_t, std::vector<netlink::NlCounter>> ports;
    };
    std::map<std::string, Device> devices;
    unsigned dumps = 0;
    unsigned stat_requests = 0;

    static std::vector<uint8_t> stats_reply(uint32_t index, const std::string& dev, uint32_t port,
                                            const std::vector<netlink::NlCounter>& counters) {
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_STAT_GET, 0)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, index)
            .str(RDMA_NLDEV_ATTR_DEV_NAME, dev)
            .u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
        b.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
        for (const auto& c : counters) {
            b.nest(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
                .str(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, c.name)
                .u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, c.value)
                .unnest();
        }
        b.unnest().end();
        return b.error(0).bytes();
    }

    std::vector<uint8_t> answer(std::span<const uint8_t> req) {
        nlmsghdr h{};
        std::memcpy(&h, req.data(), sizeof h);
        const auto op = static_cast<uint16_t>(h.nlmsg_type & 0x3ff);
        NlBuilder b;
        if (op == RDMA_NLDEV_CMD_GET) {
            ++dumps;
            for (const auto& [name, d] : devices) {
                b.begin(RDMA_NLDEV_CMD_GET)
                    .u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index)
                    .str(RDMA_NLDEV_ATTR_DEV_NAME, name)
                    .end();
            }
            return b.done().bytes();
        }
        ++stat_requests;
        // DEV_INDEX then PORT_INDEX, as nl_port_stats_request() lays them out.
        uint32_t index = 0;
        uint32_t port = 0;
        std::memcpy(&index, req.data() + sizeof h + 4, 4);
        std::memcpy(&port, req.data() + sizeof h + 12, 4);
        for (const auto& [name, d] : devices) {
            if (d.index != index) continue;
            auto p = d.ports.find(port);
            if (p == d.ports.end()) break;
            return stats_reply(index, name, port, p->second);
        }
        return b.error(-EINVAL).bytes();
    }

    // A transport that answers from this (which must outlive it).
    netlink::NlTransport transport() {
        return [this](std::span<const uint8_t> req) -> Result<std::vector<uint8_t>> {
            return answer(req);
        };
    }
};

}  // namespace rdmadiag::test
