#pragma once
// Who holds the host's MRs, from the RDMA netlink listings: per process (pid and comm, or a
// kernel user by name), per device against its max_mr, and how each grew over the leak window.
// Bounded: the snapshot names the top processes by MR count and folds the rest into `other`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/time.hpp"

namespace rdmadiag {

struct MrProcessUsage {
    std::optional<uint32_t> pid;  // absent for kernel users (xprtrdma, ...)
    std::string comm;             // comm of the process, or the kernel user's name
    uint64_t mrs = 0;
    uint64_t bytes = 0;
    std::vector<std::string> devices;
    TimePoint first_seen;
    // Change over the leak window (or since first seen, when that is shorter).
    int64_t mrs_growth = 0;
    int64_t bytes_growth = 0;
    Duration growth_over{};
    bool leak_suspected = false;
    // The listing names a pid this host has no process for: its MRs outlived their owner.
    bool owner_gone = false;
    bool operator==(const MrProcessUsage&) const = default;
};

struct MrDeviceUsage {
    std::string device;
    uint64_t mrs = 0;
    uint64_t bytes = 0;
    std::optional<uint64_t> max_mr;
    uint64_t owner_gone_mrs = 0;
    bool exhaustion_near = false;
    bool operator==(const MrDeviceUsage&) const = default;
};

struct MrUsage {
    std::vector<MrProcessUsage> processes;  // the top ones by MR count, largest first
    uint64_t other_processes = 0;           // folded into other_mrs / other_bytes
    uint64_t other_mrs = 0;
    uint64_t other_bytes = 0;
    std::vector<MrDeviceUsage> devices;  // by name; only devices with a complete listing
    bool operator==(const MrUsage&) const = default;
};

}  // namespace rdmadiag
