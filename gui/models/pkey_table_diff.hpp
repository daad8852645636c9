#pragma once
// What changed between two readings of a P_Key table, index by index, the way an operator
// reads it: a key added, removed, moved to another index, or flipped between full and limited
// membership. Keys are matched by their base (low 15 bits).

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "collector/model/pkey.hpp"
#include "collector/model/time.hpp"

namespace rdmadiag::gui {

enum class PKeyChange : uint8_t { added, removed, moved, membership };
std::string_view to_string(PKeyChange c);

struct PKeyIndexChange {
    PKeyChange kind = PKeyChange::added;
    uint16_t index = 0;                 // where the key is now (removed: where it was)
    std::optional<uint16_t> old_index;  // moved only
    uint16_t old_key = 0;
    uint16_t new_key = 0;
    bool operator==(const PKeyIndexChange&) const = default;
};

// By index. Unreadable slots on either side are left out: nothing is known about them.
std::vector<PKeyIndexChange> diff_pkey_tables(const PKeyTable& before, const PKeyTable& after);

struct PKeyTableChange {
    uint64_t old_generation = 0;
    uint64_t new_generation = 0;
    TimePoint time;
    std::vector<PKeyIndexChange> changes;
    bool operator==(const PKeyTableChange&) const = default;
};

}  // namespace rdmadiag::gui
