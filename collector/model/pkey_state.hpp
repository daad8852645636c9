#pragma once
// What the engine knows about one port's P_Key table, per view, and how the table last changed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/pkey.hpp"
#include "collector/model/port_ref.hpp"

namespace rdmadiag {

struct PKeyViewState {
    PKeyView view = PKeyView::device;
    PKeyTable table;
    uint64_t generation = 0;  // rises on every real change of the table
    TimePoint changed;        // when the current generation was first seen
    TimePoint confirmed;      // when it was last read back unchanged
    std::string source;       // who supplied it
    // cache view only: the device generation the cache was last loaded from.
    uint64_t loaded_generation = 0;
    bool operator==(const PKeyViewState&) const = default;
};

// One index's change between two generations of a table. Keys are raw values (membership bit
// included); moves pair a base key that left one index with the same base key at another. An index
// is reused when a key arrives (added or moved) where another base key sat before: in the previous
// generation, or before the index was emptied at an earlier change.
enum class PKeyChangeKind : uint8_t {
    added,               // a base key appeared at `index`
    removed,             // the base key at `index` is gone from the table
    moved,               // the base key left `old_index` and now sits at `index`
    membership_changed,  // same base key at `index`, full <-> limited
};
std::string_view to_string(PKeyChangeKind kind);
std::optional<PKeyChangeKind> parse_pkey_change_kind(std::string_view text);

struct PKeyEntryChange {
    PKeyChangeKind kind = PKeyChangeKind::added;
    uint16_t index = 0;                 // where the key is now (removed: where it was)
    std::optional<uint16_t> old_index;  // moved only
    uint16_t old_key = 0;               // 0 for added
    uint16_t new_key = 0;               // 0 for removed
    // added and moved only: the other key `index` last held, when the index is reused. Consumers
    // still holding the index for that key now send with new_key.
    std::optional<uint16_t> previous_key;
    bool operator==(const PKeyEntryChange&) const = default;
};

struct PKeyDiff {
    PortRef port;
    PKeyView view = PKeyView::device;
    uint64_t old_generation = 0;
    uint64_t new_generation = 0;
    TimePoint time;                        // when the new generation was seen
    std::vector<PKeyEntryChange> changes;  // by index
    bool operator==(const PKeyDiff&) const = default;
};

// Whether the emulated event-driven cache can be judged on a port, and what it says.
enum class CacheJudgement : uint8_t {
    unknown,      // no device view yet
    coherent,     // cache equals device
    pending,      // differs, within the grace period (or a reload is under way)
    stale,        // differs for longer than the grace period
    not_watched,  // no source watches this port's async events: cannot be judged
};
std::string_view to_string(CacheJudgement j);
std::optional<CacheJudgement> parse_cache_judgement(std::string_view text);

struct PortPKeyState {
    std::vector<PKeyViewState> views;  // at most one per PKeyView, in PKeyView order
    CacheJudgement cache = CacheJudgement::unknown;
    std::string cache_note;                // why, in words ("no source watches mlx5_0 events")
    std::optional<TimePoint> stale_since;  // cache has differed from device since then
    std::optional<PKeyDiff> last_diff;     // the primary view's (device, else sma) last change

    const PKeyViewState* find(PKeyView v) const {
        for (const auto& s : views) {
            if (s.view == v) return &s;
        }
        return nullptr;
    }
    bool operator==(const PortPKeyState&) const = default;
};

}  // namespace rdmadiag
