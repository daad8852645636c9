#pragma once
// Thresholds and bounds of the per-process MR accounting (docs/findings-mr.md, "Leaks and
// exhaustion", says how each is used).

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "collector/common/time.hpp"

namespace rdmadiag::engine::mr {

struct MrUsageSettings {
    // Processes the snapshot names; the rest are folded into "other".
    size_t top_processes = 10;
    // Processes whose history is kept; beyond it new ones are counted, not followed.
    size_t max_processes = 4096;
    // mr.leak_suspected: over the last window a process's MR count (or registered bytes) rose in
    // every quarter of it, by at least this much in all.
    Duration leak_window = std::chrono::minutes(10);
    uint64_t leak_min_mrs = 1000;
    uint64_t leak_min_bytes = uint64_t{1} << 30;
    // mr.exhaustion_near: a device holds this share of its max_mr; clears below the second.
    double exhaustion_ratio = 0.9;
    double exhaustion_clear_ratio = 0.85;
    // mr.owner_gone: MRs listed without a live owner for this long (a dying process's MRs are
    // listed for a moment after it is gone, while the kernel closes its files).
    Duration owner_gone_grace = std::chrono::seconds(30);
};

}  // namespace rdmadiag::engine::mr
