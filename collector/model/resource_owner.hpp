#pragma once
// Who holds an RDMA resource (an MR, a QP, a CM ID) or uses a port (an IPoIB interface): a
// process (its pid and comm) or a kernel ULP (its name, xprtrdma, ib_srp, ...).

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

namespace rdmadiag {

struct ResourceOwner {
    std::optional<uint32_t> pid;
    std::string name;  // comm for a process, ULP name for the kernel
    bool operator==(const ResourceOwner&) const = default;
    auto operator<=>(const ResourceOwner&) const = default;
};

}  // namespace rdmadiag
