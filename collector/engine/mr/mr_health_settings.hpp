#pragma once
// Thresholds and bounds of the MR health tracker.

#include <chrono>
#include <cstddef>

#include "collector/common/time.hpp"

namespace rdmadiag::engine::mr {

struct MrHealthSettings {
    // An MR unknown for longer than this raises mr.unknown_state.
    Duration unknown_threshold = std::chrono::seconds(30);
    // On a kernel that destroys flushed xprtrdma MRs with their connection, a flushed MR still
    // there this long after its flush raises mr.teardown_overdue (the teardown follows the flush
    // within moments: the flush comes from the disconnect that tears the transport down).
    Duration teardown_timeout = std::chrono::seconds(60);
    // Deregistered MRs stay visible this long, and at most this many of them.
    Duration retention = std::chrono::minutes(10);
    size_t max_deregistered = 1000;
    // Upper bound on MRs tracked at once; new ones beyond it are counted, not tracked.
    size_t max_records = 200000;
    // Recoveries kept for the snapshot.
    size_t max_recoveries = 200;
};

}  // namespace rdmadiag::engine::mr
