#pragma once
// Pure parsers of RDMA netlink (NETLINK_RDMA, nldev client) dump replies: the device list
// (RDMA_NLDEV_CMD_GET) and one device's MRs (RDMA_NLDEV_CMD_RES_MR_GET). Input is the bytes of
// every reply message up to NLMSG_DONE; every length is checked against what is left, so a
// malformed reply is an error, never a read past the buffer.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag::netlink {

struct NlDevice {
    uint32_t index = 0;
    std::string name;
    bool operator==(const NlDevice&) const = default;
};

// Whether the bytes hold the whole dump (an NLMSG_DONE or NLMSG_ERROR was seen).
bool nl_dump_finished(std::span<const uint8_t> bytes);

Result<std::vector<NlDevice>> parse_nl_device_dump(std::span<const uint8_t> bytes);

// The MRs of `device`. complete is false when the kernel flagged the dump as interrupted or an
// entry came without its MR number.
Result<MrInventory> parse_nl_mr_dump(std::span<const uint8_t> bytes, const std::string& device);

// Request bytes: the device dump, and one device's MR dump.
std::vector<uint8_t> nl_device_dump_request(uint32_t seq);
std::vector<uint8_t> nl_mr_dump_request(uint32_t seq, uint32_t device_index);

}  // namespace rdmadiag::netlink
