#pragma once
// Every model the dashboard shows, fed from one snapshot at a time, or from a daemon's change
// feed one delta at a time (only what changed is touched). Keeps what a single snapshot cannot
// tell: counter history and when the P_Key tables changed. The current port selects what the
// P_Key and counter tables show.

#include <memory>
#include <optional>

#include "collector/model/snapshot.hpp"
#include "gui/models/counter_history.hpp"
#include "gui/models/counter_table_model.hpp"
#include "gui/models/event_model.hpp"
#include "gui/models/findings_model.hpp"
#include "gui/models/mr_table_model.hpp"
#include "gui/models/node_names.hpp"
#include "gui/models/pkey_change_marks.hpp"
#include "gui/models/pkey_table_model.hpp"
#include "gui/models/port_tree_model.hpp"
#include "gui/models/snapshot_delta.hpp"

namespace rdmadiag::gui::models {

class DashboardModels {
public:
    DashboardModels();

    void apply(SnapshotPtr snapshot);
    // One answer of the change feed; says what it changed. A delta that is not `full` before any
    // snapshot is ignored.
    DeltaEffect apply_delta(SnapshotDelta delta);
    // A port's counters, read on their own (the change feed leaves them out).
    void set_port_counters(const PortRef& port, std::vector<CounterState> readings, TimePoint time);
    // Forgets history (a playback that jumped back in time, another daemon).
    void reset();

    void select_port(std::optional<PortRef> port);
    std::optional<PortRef> current_port() const { return port_; }
    const SnapshotPtr& snapshot() const { return snapshot_; }

    NodeNames names;
    FindingsModel findings{&names};
    PortTreeModel ports;
    PKeyTableModel pkeys;
    CounterTableModel counters;
    EventModel events{&names};
    MrTableModel mrs{&names};
    CounterHistory history;
    PKeyChangeMarks pkey_changes;

private:
    void refresh_port_views();
    // The snapshot to change in place: ours alone, copied first if anyone else holds it.
    Snapshot& own_snapshot();

    SnapshotPtr snapshot_;
    std::shared_ptr<Snapshot> own_;
    std::optional<PortRef> port_;
};

// The port a user most likely wants to see first: one with a stale cache, else the first port
// with an active finding, else the first port with a P_Key table, else the first port.
std::optional<PortRef> default_port(const Snapshot& snapshot);

}  // namespace rdmadiag::gui::models
