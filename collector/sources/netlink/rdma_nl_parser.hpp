#pragma once
// Pure parsers of RDMA netlink (NETLINK_RDMA, nldev client) replies: the device list
// (RDMA_NLDEV_CMD_GET), one device's ports with their netdevs (RDMA_NLDEV_CMD_PORT_GET) and one
// device's MRs (RDMA_NLDEV_CMD_RES_MR_GET), dumps whose bytes run up to NLMSG_DONE, and one port's
// hardware counters (RDMA_NLDEV_CMD_STAT_GET, what `rdma statistic show link DEV/PORT` asks), one
// answer ended by its acknowledgement. Every length is checked against what is left, so a malformed
// reply is an error, never a read past the buffer.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/model/observation.hpp"
#include "collector/sources/netlink/nl_message.hpp"

namespace rdmadiag::netlink {

struct NlDevice {
    uint32_t index = 0;
    std::string name;
    // The first port's protocol ("ib", "roce", "iw", "opa"); empty from kernels that do not say.
    std::string protocol;
    bool operator==(const NlDevice&) const = default;
};

// One port of a device and the netdev the kernel ties to it (RoCE, iWARP; none for InfiniBand),
// which nldev names only when it is in the asking socket's network namespace.
struct NlPort {
    uint32_t device_index = 0;
    std::string device;
    uint32_t port = 0;
    std::optional<uint32_t> ndev_index;
    std::string ndev_name;
    bool operator==(const NlPort&) const = default;
};

struct NlCounter {
    std::string name;
    uint64_t value = 0;
    bool operator==(const NlCounter&) const = default;
};

// One port's hardware counters as the kernel answered them: the same names and values as the
// port's hw_counters/ files (both add what bound per-QP counters counted), in the driver's order.
struct NlPortStats {
    uint32_t device_index = 0;
    std::string device;
    uint32_t port = 0;
    std::vector<NlCounter> counters;
    bool operator==(const NlPortStats&) const = default;
};

Result<std::vector<NlDevice>> parse_nl_device_dump(std::span<const uint8_t> bytes);

// The answer to nl_port_dump_request(): every port of one device.
Result<std::vector<NlPort>> parse_nl_port_dump(std::span<const uint8_t> bytes);

// The MRs of `device`. complete is false when the kernel flagged the dump as interrupted or an
// entry came without its MR number.
Result<MrInventory> parse_nl_mr_dump(std::span<const uint8_t> bytes, const std::string& device);

// The answer to nl_port_stats_request(): the statistics message, then the acknowledgement. An
// NLMSG_ERROR (the kernel has no statistics for that port: EINVAL, EOPNOTSUPP) is an error with
// its errno.
Result<NlPortStats> parse_nl_port_stats(std::span<const uint8_t> bytes);

// Request bytes: the device dump, one device's port dump (nldev dumps ports one device at a
// time), one device's MR dump, one port's hardware counters.
std::vector<uint8_t> nl_device_dump_request(uint32_t seq);
std::vector<uint8_t> nl_port_dump_request(uint32_t seq, uint32_t device_index);
std::vector<uint8_t> nl_mr_dump_request(uint32_t seq, uint32_t device_index);
std::vector<uint8_t> nl_port_stats_request(uint32_t seq, uint32_t device_index, uint32_t port);
// One device's QP and CM ID dumps (res_dump_parser.hpp reads the answers).
std::vector<uint8_t> nl_qp_dump_request(uint32_t seq, uint32_t device_index);
std::vector<uint8_t> nl_cm_id_dump_request(uint32_t seq, uint32_t device_index);

// The netlink message type of an nldev command (RDMA_NLDEV_CMD_*).
uint16_t nldev_msg_type(uint16_t command);

}  // namespace rdmadiag::netlink
