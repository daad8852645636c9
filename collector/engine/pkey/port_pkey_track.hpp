#pragma once
// The P_Key module's working state for one port: the views (tables shared between views while they
// are equal, so a steady port costs one table), the emulated cache's pending reload, and what the
// time-driven rules need to remember.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/engine/pkey/packed_pkey_table.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/pkey_state.hpp"

namespace rdmadiag::engine::pkey {

struct TrackedView {
    SharedPKeyTable table;  // null: this view has not been seen
    uint64_t generation = 0;
    TimePoint changed;
    TimePoint confirmed;
    uint64_t loaded_generation = 0;  // cache only
    uint16_t source = 0;             // index into the module's source names

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
    TrackedView device_view;
    TrackedView cache_view;
    // The SMA's and the SM's views exist only where MADs are read: held apart, so that ports read
    // through sysfs alone do not carry them.
    std::unique_ptr<std::array<TrackedView, 2>> mad_views;
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
    // Touched since the last snapshot showed it: its device is built again for the next one.
    bool unshown = true;
    // A digest of what the snapshot shows of the port but the times its views were read: when it
    // moves, the module's part of the snapshot changed.
    uint64_t shown = 0;

    // The view to update (a MAD view is made on first use).
    TrackedView& view(PKeyView v) {
        if (v == PKeyView::device) return device_view;
        if (v == PKeyView::cache) return cache_view;
        if (!mad_views) mad_views = std::make_unique<std::array<TrackedView, 2>>();
        return (*mad_views)[v == PKeyView::sma ? 0 : 1];
    }
    // The view to read: one never seen reads as not present.
    const TrackedView& view(PKeyView v) const {
        static const TrackedView kUnseen;
        if (v == PKeyView::device) return device_view;
        if (v == PKeyView::cache) return cache_view;
        if (!mad_views) return kUnseen;
        return (*mad_views)[v == PKeyView::sma ? 0 : 1];
    }
    // Changes are reported on the device view, or the SMA's for ports only MADs reach.
    PKeyView primary() const {
        return view(PKeyView::device).present() ? PKeyView::device : PKeyView::sma;
    }
};

}  // namespace rdmadiag::engine::pkey
