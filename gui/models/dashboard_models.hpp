#pragma once
// Every model the dashboard shows, fed from one snapshot at a time, or from a daemon's change
// feed one delta at a time (only what changed is touched). Keeps what a single snapshot cannot
// tell: counter history and when the P_Key tables changed. The current port selects what the
// P_Key, GID, counter and consumer tables show; the current partition, which members and findings
// the Partitions tab shows. Partitions come with a playback's snapshots (the engine's model), or
// from a daemon's /api/v1/partitions answers (set_partitions): the change feed does not carry them.

#include <memory>
#include <optional>

#include "collector/model/snapshot.hpp"
#include "gui/models/consumer_table_model.hpp"
#include "gui/models/counter_history.hpp"
#include "gui/models/counter_table_model.hpp"
#include "gui/models/event_model.hpp"
#include "gui/models/findings_model.hpp"
#include "gui/models/gid_table_model.hpp"
#include "gui/models/mr_process_model.hpp"
#include "gui/models/mr_table_model.hpp"
#include "gui/models/node_names.hpp"
#include "gui/models/partition_list_model.hpp"
#include "gui/models/partition_listing.hpp"
#include "gui/models/partition_member_model.hpp"
#include "gui/models/pkey_change_marks.hpp"
#include "gui/models/pkey_table_model.hpp"
#include "gui/models/port_tree_model.hpp"
#include "gui/models/snapshot_delta.hpp"

namespace rdmadiag::gui::models {

// What the Partitions tab says above its tables: the intent and what in it could not be used.
struct PartitionsInfo {
    bool have = false;  // partitions were read at least once
    bool intent = false;
    std::optional<PartitionIntentInfo> intent_file;
    std::vector<std::string> unresolved;
    QString problem;  // why the last reading failed; empty when it did not
};

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

    // A daemon's /api/v1/partitions answer: every partition, or the members of one. Members of a
    // partition that is no longer the current one are dropped.
    void set_partitions(const PartitionListing& listing);
    // Why the partitions could not be read; what was shown stays.
    void set_partitions_problem(const QString& why);
    // A base P_Key, or none. Without the engine's model at hand (a daemon) the members are
    // cleared until the feed reads them.
    void select_partition(std::optional<uint16_t> pkey);
    std::optional<uint16_t> current_partition() const { return partition_; }
    const PartitionsInfo& partitions_info() const { return partitions_info_; }
    const SnapshotPtr& snapshot() const { return snapshot_; }

    // A daemon's /api/v1/consumers answer (null: it has no consumers source). A playback's
    // snapshots carry the engine's inventory themselves.
    void set_consumers(std::shared_ptr<const HostConsumers> listing);
    // Why the consumers could not be read; what was shown stays.
    void set_consumers_problem(const QString& why) { consumers_problem_ = why; }
    const QString& consumers_problem() const { return consumers_problem_; }

    NodeNames names;
    FindingsModel findings{&names};
    PortTreeModel ports;
    PKeyTableModel pkeys;
    GidTableModel gids;
    CounterTableModel counters;
    ConsumerTableModel consumers;  // the current port's
    EventModel events{&names};
    MrTableModel mrs{&names};
    MrProcessModel mr_processes;
    PartitionListModel partitions;
    PartitionMemberModel partition_members{&names};
    FindingsModel partition_findings{&names};  // the current partition's
    CounterHistory history;
    PKeyChangeMarks pkey_changes;

private:
    void refresh_port_views();
    void show_partition_model();  // a playback's: the engine's model at hand
    void take_partitions_header(const PartitionListing& listing);
    void choose_partition();  // the current one, or a default when it is gone
    void refresh_partition_findings();
    // The snapshot to change in place: ours alone, copied first if anyone else holds it.
    Snapshot& own_snapshot();

    SnapshotPtr snapshot_;
    std::shared_ptr<Snapshot> own_;
    std::optional<PortRef> port_;
    std::shared_ptr<const PartitionModel> partition_model_;  // the last one shown, if any
    std::optional<uint16_t> partition_;
    PartitionsInfo partitions_info_;
    std::shared_ptr<const HostConsumers> host_consumers_;
    QString consumers_problem_;
};

// The port a user most likely wants to see first: one with a stale cache, else the first port
// with an active finding, else the first port with a P_Key table, else the first port.
std::optional<PortRef> default_port(const Snapshot& snapshot);

// The partition to show first: the first with members that differ from the intent, else the
// first with an active finding, else the first.
std::optional<uint16_t> default_partition(const PartitionListModel& partitions);

}  // namespace rdmadiag::gui::models
