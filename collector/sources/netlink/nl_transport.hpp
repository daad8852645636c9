#pragma once
// One netlink request/reply exchange as a function, so sources and readers take the kernel or,
// in tests, replies built beforehand. The real one is a socket of one netlink family, kept open
// across exchanges.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::netlink {

// Sends one request and returns every byte of its reply (a dump up to NLMSG_DONE, or one answer
// up to its acknowledgement or error).
using NlTransport = std::function<Result<std::vector<uint8_t>>(std::span<const uint8_t> request)>;

// A transport over a socket of netlink `protocol` (NETLINK_RDMA, NETLINK_ROUTE); `what` names it
// in errors ("RDMA netlink").
Result<NlTransport> open_netlink(int protocol, const std::string& what);

// A transport over a NETLINK_RDMA socket.
Result<NlTransport> open_rdma_netlink();

}  // namespace rdmadiag::netlink
