#pragma once
// The engine's published state: an immutable value shared with sinks as
// std::shared_ptr<const Snapshot>. Sinks read it; nothing in it points back into the engine.
// Consecutive snapshots share the devices that did not change between them.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/model/copy_on_write_vector.hpp"
#include "collector/model/counter_state.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/gid_state.hpp"
#include "collector/model/mr_state.hpp"
#include "collector/model/observation.hpp"
#include "collector/model/partition_model.hpp"
#include "collector/model/pkey_state.hpp"
#include "collector/model/shared_value.hpp"

namespace rdmadiag {

struct PortSnapshot {
    PortRef ref;
    PortStateSample info;  // last port state reading
    bool present = true;
    PortPKeyState pkeys;
    // Shared: a port of a subnet sweep has no GID cache and the views rarely change.
    SharedValue<PortGidState> gids;
    std::vector<CounterState> counters;  // by kind then name
    TimePoint updated;
    bool operator==(const PortSnapshot&) const = default;
};

struct DeviceSnapshot {
    DeviceInfo info;
    bool present = true;
    std::string source;
    std::vector<PortSnapshot> ports;  // by port number
    TimePoint updated;
    // The sequence of the snapshot in which the device's state last changed: anything but its
    // counters and the times things were read. A client holding an older copy fetches it again.
    uint64_t revision = 0;
    bool operator==(const DeviceSnapshot&) const = default;
};

struct SourceSnapshot {
    std::string name;
    bool up = false;
    std::string reason;
    uint64_t observations = 0;
    uint64_t errors = 0;
    TimePoint last_seen;
    bool operator==(const SourceSnapshot&) const = default;
};

struct EventRecord {
    TimePoint time;
    std::string source;
    AsyncEvent event;
    bool operator==(const EventRecord&) const = default;
};

// How many async events of one type a device (or one of its ports) has delivered since the
// collector started: a total that keeps counting after the bounded event list drops old records.
struct EventTotal {
    std::string device;
    std::optional<uint32_t> port;
    AsyncEventType type = AsyncEventType::unknown;
    uint64_t count = 0;
    bool operator==(const EventTotal&) const = default;
};

struct ErrorRecord {
    TimePoint time;
    std::string source;
    SampleError error;
    bool operator==(const ErrorRecord&) const = default;
};

// The sequence of the snapshot in which each part last changed (devices: the set of names), so a
// client knows which parts to fetch again.
struct SectionRevisions {
    uint64_t devices = 0;
    uint64_t sources = 0;
    uint64_t findings = 0;
    uint64_t finding_history = 0;
    uint64_t events = 0;
    uint64_t errors = 0;
    uint64_t mrs = 0;
    uint64_t pkey_changes = 0;
    bool operator==(const SectionRevisions&) const = default;
};

struct Snapshot {
    uint64_t sequence = 0;                      // rises with every published snapshot
    TimePoint time;                             // the engine's clock when it was made
    CopyOnWriteVector<DeviceSnapshot> devices;  // by name
    std::vector<SourceSnapshot> sources;        // by name
    std::vector<Finding> findings;              // active, most severe first
    std::vector<Finding> finding_history;       // cleared, newest first, bounded
    std::vector<EventRecord> events;            // recent async events, oldest first, bounded
    std::vector<ErrorRecord> errors;            // recent sample errors, oldest first, bounded
    std::vector<EventTotal> event_totals;       // by device, port, type
    MrHealth mrs;
    std::vector<PKeyDiff> pkey_changes;  // recent P_Key table changes, oldest first, bounded
    // Partitions: the P_Key views as members per P_Key, against the SM's intent where one was
    // given. Shared with the snapshots before it while neither changed; null before the engine
    // built one. Not in the snapshot's JSON: /api/v1/partitions serves it.
    std::shared_ptr<const PartitionModel> partitions;
    // Who uses each port's P_Keys and GIDs. Shared with the snapshots before it while it did not
    // change; null before any consumers source reported. Not in the snapshot's JSON:
    // /api/v1/consumers serves it.
    std::shared_ptr<const HostConsumers> consumers;
    SectionRevisions revisions;

    const DeviceSnapshot* find_device(std::string_view name) const;
    const PortSnapshot* find_port(const PortRef& ref) const;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace rdmadiag
