#pragma once
// MR health as the engine tracks it (design: valid -> invalid -> valid, unknown after a flushed
// invalidation or registration, stuck after MW_BIND_ERR, deregistered).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/model/observation.hpp"
#include "collector/model/time.hpp"

namespace rdmadiag {

enum class MrState : uint8_t { valid, invalid, unknown, stuck, deregistered };
std::string_view to_string(MrState s);
std::optional<MrState> parse_mr_state(std::string_view text);

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
    bool operator==(const MrRecord&) const = default;
};

struct MrHealth {
    std::vector<MrRecord> mrs;  // live and recently deregistered, by device then id
    bool operator==(const MrHealth&) const = default;
};

}  // namespace rdmadiag
