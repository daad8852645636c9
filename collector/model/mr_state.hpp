#pragma once
// MR health as the engine tracks it (design: valid -> invalid -> valid, unknown after a flushed
// invalidation or registration, stuck after MW_BIND_ERR, deregistered).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/mr_kernel.hpp"
#include "collector/model/mr_usage.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

// awaiting_teardown: flushed on a kernel that destroys flushed xprtrdma MRs with their
// connection (collector/model/mr_kernel.hpp) instead of leaving them unknown.
enum class MrState : uint8_t { valid, invalid, unknown, awaiting_teardown, stuck, deregistered };
std::string_view to_string(MrState s);
std::optional<MrState> parse_mr_state(std::string_view text);

// How a flagged MR came back: deregistered (seen by a trace or the probe), known again after a
// successful invalidation or registration (re-posting LOCAL_INV is legal on iWARP), or absent
// from a complete netlink listing.
enum class MrRecoveryKind : uint8_t { dereg, known_again, absent_from_listing };
std::string_view to_string(MrRecoveryKind k);
std::optional<MrRecoveryKind> parse_mr_recovery_kind(std::string_view text);

struct MrRecord {
    std::string device;
    uint64_t mr = 0;
    std::optional<uint32_t> key;
    MrOwner owner;
    Transport transport = Transport::unknown;
    MrState state = MrState::valid;
    TimePoint state_since;
    TimePoint first_seen;
    TimePoint last_seen;
    std::optional<MrOp> last_op;
    std::optional<WcStatus> last_status;
    // Set while the MR is unknown or stuck: when it left a known state.
    std::optional<TimePoint> flagged_since;
    uint64_t completions = 0;
    std::string source;  // the source that last changed it
    std::string advice;  // what to do, for unknown and stuck MRs; empty otherwise
    bool operator==(const MrRecord&) const = default;
};

struct MrCompletionCount {
    MrOp op = MrOp::fastreg;
    WcStatus status = WcStatus::success;
    uint64_t count = 0;
    bool operator==(const MrCompletionCount&) const = default;
};

// Per-device totals. State counts are current; everything else only rises.
struct MrDeviceHealth {
    std::string device;
    std::map<MrState, uint64_t> by_state;        // MRs tracked now, per state
    std::vector<MrCompletionCount> completions;  // by op then status
    std::map<MrOp, uint64_t> posted;             // work requests reported posted
    uint64_t bind_errors = 0;                    // completions with MW_BIND_ERR
    uint64_t entered_unknown = 0;
    uint64_t entered_stuck = 0;
    uint64_t recoveries = 0;
    Duration recovery_time_total{};    // flagged -> recovered, summed
    Duration unknown_time_total{};     // time spent unknown by MRs that left it
    uint64_t duplicate_events = 0;     // completions that repeat the current state
    uint64_t late_events = 0;          // older than the MR's state, or after dereg
    uint64_t failed_ops = 0;           // alloc/dereg with a non-zero rc
    uint64_t ignored_while_stuck = 0;  // successes reported for a stuck MR
    bool operator==(const MrDeviceHealth&) const = default;
};

struct MrRecovery {
    std::string device;
    uint64_t mr = 0;
    MrOwner owner;
    MrState from = MrState::stuck;
    MrRecoveryKind kind = MrRecoveryKind::dereg;
    TimePoint flagged_since;
    TimePoint recovered;
    bool operator==(const MrRecovery&) const = default;
};

struct MrHealth {
    std::vector<MrRecord> mrs;            // live and recently deregistered, by device then id
    std::vector<MrDeviceHealth> devices;  // by name
    std::vector<MrRecovery> recoveries;   // newest first, bounded
    uint64_t dropped_records = 0;         // new MRs not tracked because the table was full
    MrKernelBehaviour kernel;             // what the kernel does with flushed xprtrdma MRs
    MrUsage usage;                        // who holds the MRs (RDMA netlink)
    bool operator==(const MrHealth&) const = default;

    uint64_t count(MrState s) const;  // over all devices
};

}  // namespace rdmadiag
