#pragma once
// What the engine knows about one port's GIDs, per view, and how they last changed.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/gid.hpp"
#include "collector/model/port_ref.hpp"

namespace rdmadiag {

struct GidViewState {
    GidView view = GidView::cache;
    GidTable table;
    uint64_t generation = 0;  // rises on every real change of the view
    TimePoint changed;        // when the current generation was first seen
    TimePoint confirmed;      // when it was last read back unchanged
    std::string source;       // who supplied it
    bool operator==(const GidViewState&) const = default;
};

// One view's change between two generations: the entries that left and the ones that came, by
// index (an entry whose GID, type or netdev changed at one index is in both).
struct GidDiff {
    PortRef port;
    GidView view = GidView::cache;
    uint64_t old_generation = 0;
    uint64_t new_generation = 0;
    TimePoint time;
    std::vector<GidEntry> removed;
    std::vector<GidEntry> added;
    bool operator==(const GidDiff&) const = default;
};

// Whether the kernel's GID cache agrees with what the port holds (InfiniBand: the SMA's view) or
// with the addresses of its netdev (RoCE).
enum class GidCoherence : uint8_t {
    unknown,   // not both sides read yet
    coherent,  // they agree
    pending,   // they differ, within the grace period
    stale,     // they differ for longer than the grace period
};
std::string_view to_string(GidCoherence c);
std::optional<GidCoherence> parse_gid_coherence(std::string_view text);

struct PortGidState {
    std::vector<GidViewState> views;  // at most one per GidView, in GidView order
    GidCoherence coherence = GidCoherence::unknown;
    std::string note;                        // why, in words, when not coherent
    std::optional<TimePoint> differs_since;  // the cache has differed from the port since then
    // The port's GID_CHANGE and CLIENT_REREGISTER events: how many, and the last one's time.
    uint64_t gid_change_events = 0;
    std::optional<TimePoint> last_gid_change;
    uint64_t client_reregister_events = 0;
    std::optional<TimePoint> last_client_reregister;
    // The last change of each view that changed since the collector first read it, in GidView
    // order: the port's and the cache's change of one event side by side.
    std::vector<GidDiff> last_changes;

    const GidViewState* find(GidView v) const {
        for (const auto& s : views) {
            if (s.view == v) return &s;
        }
        return nullptr;
    }
    const GidDiff* last_change(GidView v) const {
        for (const auto& d : last_changes) {
            if (d.view == v) return &d;
        }
        return nullptr;
    }
    bool empty() const {
        return views.empty() && gid_change_events == 0 && client_reregister_events == 0;
    }
    bool operator==(const PortGidState&) const = default;
};

}  // namespace rdmadiag
