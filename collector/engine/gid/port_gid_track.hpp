#pragma once
// The GID module's working state for one port: the views it was shown (each made on first use, so
// a port read by one source carries one), its events, and what the rules remember between looks.

#include <array>
#include <memory>
#include <optional>

#include "collector/model/gid_state.hpp"

namespace rdmadiag::engine::gid {

struct TrackedGidView {
    GidTable table;
    uint64_t generation = 0;
    TimePoint changed;
    TimePoint confirmed;
    uint16_t source = 0;                   // index into the module's source names
    std::unique_ptr<GidDiff> last_change;  // none until the view first changes
};

// Port findings this port may have active, one bit each, so that clearing costs nothing when
// none is.
enum PortRuleBit : uint8_t {
    kCacheStaleBit = 1,
    kGidMissingBit = 2,
    kGidStaleBit = 4,
    kDuplicateInPortBit = 8,
    kDuplicateGuidBit = 16,       // by the SMA's view
    kDuplicateCacheGuidBit = 32,  // by the kernel cache's view
};

struct PortGidTrack {
    std::array<std::unique_ptr<TrackedGidView>, 4> views;  // by GidView
    GidCoherence coherence = GidCoherence::unknown;
    std::string note;
    std::optional<TimePoint> differs_since;
    // The SMA's prefix has differed from the reference prefix (the SM's, or most ports') since.
    std::optional<TimePoint> prefix_differs_since;
    uint64_t gid_change_events = 0;
    std::optional<TimePoint> last_gid_change;
    uint64_t client_reregister_events = 0;
    std::optional<TimePoint> last_client_reregister;
    TimePoint next_check = TimePoint::max();
    uint8_t active = 0;                       // PortRuleBit
    std::optional<uint16_t> duplicate_index;  // the subject index of a duplicate within the table
    bool unshown = true;

    TrackedGidView* view(GidView v) { return views[static_cast<size_t>(v)].get(); }
    const TrackedGidView* view(GidView v) const { return views[static_cast<size_t>(v)].get(); }
    TrackedGidView& make_view(GidView v) {
        auto& p = views[static_cast<size_t>(v)];
        if (!p) p = std::make_unique<TrackedGidView>();
        return *p;
    }
};

}  // namespace rdmadiag::engine::gid
