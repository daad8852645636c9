#pragma once
// The P_Key module's working state for one port: the views (tables shared between views while they
// are equal, so a steady port costs one table), the emulated cache's pending reload, and what the
// time-driven rules need to remember.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/engine/pkey/vacated_indexes.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

struct TrackedView {
    std::shared_ptr<const PKeyTable> table;  // null: this view has not been seen
    uint64_t generation = 0;
    TimePoint changed;
    TimePoint confirmed;
    uint64_t loaded_generation = 0;  // cache only
    uint16_t source = 0;             // index into the module's source names
    VacatedIndexes vacated;          // who last held the empty indexes, to recognise reuse

    bool present() const { return table != nullptr; }
};

// A finding that reports a moment (a change, an event) rather than a lasting condition: it stays
// active until `expires`.
struct HeldFinding {
    std::string rule;
    FindingSubject subject;
    TimePoint expires;
};

struct PortPKeyTrack {
    std::array<TrackedView, 4> views;  // indexed by PKeyView
    bool watched = false;
    CacheJudgement cache = CacheJudgement::unknown;
    bool reload_pending = false;  // a PKEY_CHANGE arrived; reload on the next device read
    TimePoint reload_requested;
    std::optional<TimePoint> stale_since;
    std::optional<TimePoint> divergent_since;
    std::unique_ptr<PKeyDiff> last_diff;    // primary view's last change
    std::vector<TimePoint> recent_changes;  // primary view, within the flapping window
    std::vector<HeldFinding> held;
    std::optional<TimePoint> last_violation_rise;
    std::array<uint64_t, 3> violation_totals{};  // per kViolationCounters entry, last total seen
    std::array<bool, 3> violation_seen{};
    TimePoint next_check = TimePoint::max();
    // Port-wide findings this port may have active (one bit per rule), so the common case of
    // nothing to clear costs no lookup.
    uint8_t port_findings = 0;

    TrackedView& view(PKeyView v) { return views[static_cast<size_t>(v)]; }
    const TrackedView& view(PKeyView v) const { return views[static_cast<size_t>(v)]; }
    // Changes are reported on the device view, or the SMA's for ports only MADs reach.
    PKeyView primary() const {
        return view(PKeyView::device).present() ? PKeyView::device : PKeyView::sma;
    }
};

}  // namespace rdmadiag
