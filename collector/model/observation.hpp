#pragma once
// Observations: the only thing sources hand to the engine. Each is a plain value stamped with the
// time it was made and the name of the source that made it; the simulated fabric, a recording and
// a real device produce exactly the same types.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/consumer.hpp"
#include "collector/model/counter.hpp"
#include "collector/model/gid.hpp"
#include "collector/model/mr_kernel.hpp"
#include "collector/model/pkey.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/model/rdma_enums.hpp"
#include "collector/model/resource_owner.hpp"

namespace rdmadiag {

// What a device is. Every field but the name is optional: a file that cannot be read leaves it out.
struct DeviceInfo {
    std::string device;
    std::optional<std::string> node_type;  // "CA", "switch", "router", "RNIC"
    std::optional<uint64_t> node_guid;
    std::optional<uint64_t> sys_image_guid;
    std::optional<std::string> fw_ver;
    std::optional<std::string> board_id;
    std::optional<std::string> hca_type;
    std::optional<std::string> node_desc;
    std::optional<uint32_t> lid;  // set by MAD sources for remote nodes
    Transport transport = Transport::unknown;
    // MAD sources: whether the node answered this pass (PortInfo of any port), and when not, a
    // kind from a small fixed set ("no_answer", "error") and the first error in words.
    std::optional<bool> reachable;
    std::string unreachable_kind;
    std::string unreachable_reason;
    bool operator==(const DeviceInfo&) const = default;
};

// What a device allows, as the verbs source reads it once per open (ibv_query_device).
struct DeviceLimits {
    std::string device;
    std::optional<uint64_t> max_mr;  // ibv_device_attr.max_mr
    bool operator==(const DeviceLimits&) const = default;
};

// The sources that enumerate devices say which ones they saw in one pass, so the engine can tell
// a device that went away from one that was not looked at.
struct DeviceList {
    std::vector<std::string> devices;
    bool operator==(const DeviceList&) const = default;
};

struct PortStateSample {
    PortRef port;
    std::optional<PortState> state;
    std::optional<uint8_t> phys_state;  // IBA PortPhysicalState, 5 = LinkUp
    std::optional<std::string> phys_state_text;
    std::optional<uint32_t> lid;
    std::optional<uint32_t> sm_lid;
    std::optional<uint8_t> lmc;
    std::optional<LinkLayer> link_layer;
    std::optional<std::string> rate;  // "100 Gb/sec (4X EDR)"
    std::optional<uint32_t> cap_mask;
    std::optional<uint64_t> port_guid;
    std::vector<std::string> gids;  // non-zero GIDs, "fe80:0000:..." as sysfs prints them
    // The port at the other end of the link, as a subnet sweep found it: its node's GUID and its
    // port number.
    std::optional<uint64_t> peer_node_guid;
    std::optional<uint32_t> peer_port;
    // A switch's external port: whether it checks the P_Key of packets it receives (inbound) and
    // sends (outbound) against its own table (PortInfo PartitionEnforcementInbound/Outbound).
    std::optional<bool> partition_enforcement_inbound;
    std::optional<bool> partition_enforcement_outbound;
    bool operator==(const PortStateSample&) const = default;
};

struct PKeyTableSample {
    PortRef port;
    PKeyView view = PKeyView::device;
    PKeyTable table;
    bool operator==(const PKeyTableSample&) const = default;
};

// One view of a port's GIDs (cache, sma, sm, netdev) as a source read it: the whole table.
struct GidTableSample {
    PortRef port;
    GidView view = GidView::cache;
    GidTable table;
    bool operator==(const GidTableSample&) const = default;
};

struct CounterSample {
    PortRef port;
    std::string name;  // sysfs file name or IBA field name in snake case
    uint64_t value = 0;
    uint8_t width = 64;  // bits the hardware keeps
    CounterKind kind = CounterKind::pma;
    bool operator==(const CounterSample&) const = default;
};

struct AsyncEvent {
    std::string device;
    std::optional<uint32_t> port;  // for port events
    AsyncEventType type = AsyncEventType::unknown;
    std::optional<uint32_t> element;  // QP, CQ, SRQ or WQ number for those events
    bool operator==(const AsyncEvent&) const = default;
};

using MrOwner = ResourceOwner;  // who holds an MR

struct MrEvent {
    std::string device;
    uint64_t mr = 0;              // MR id (mr.id / mrn) as the source names it
    std::optional<uint32_t> key;  // rkey/lkey when known
    MrOwner owner;
    MrOp op = MrOp::reg;
    WcStatus status = WcStatus::success;
    std::optional<int> rc;  // return code for alloc/dereg
    // True when a work request was posted (the probe reports those); its completion is a
    // separate event with posted == false.
    bool posted = false;
    bool operator==(const MrEvent&) const = default;
};

// The MRs a device has live right now (RDMA netlink resource dump). `complete` is false when the
// listing was cut short, in which case absence proves nothing. An empty device name means every
// device of the host (what MRs named only by id, as trace events name them, are checked against).
struct MrInventory {
    struct Entry {
        uint64_t mr = 0;
        std::optional<uint32_t> pid;
        std::string comm;
        std::optional<uint64_t> length;
        std::optional<uint32_t> lkey;
        std::optional<uint32_t> rkey;
        // The pid names no process of this host (any more): the MR outlived its owner.
        bool owner_gone = false;
        bool operator==(const Entry&) const = default;
    };
    std::string device;
    std::vector<Entry> mrs;
    bool complete = true;
    bool operator==(const MrInventory&) const = default;
};

// The ports whose asynchronous events (PKEY_CHANGE, PORT_ACTIVE, ...) a source delivers. The
// engine judges an event-driven cache only where some source that is up declares it watches.
struct EventCoverage {
    std::string device;
    std::vector<uint32_t> ports;  // empty: every port of the device
    bool operator==(const EventCoverage&) const = default;
};

// A source's health: up, or down with the reason ("no RDMA device", "tracefs not mounted").
struct SourceStatus {
    bool up = false;
    std::string reason;
    // Event sources list what they watch; each status replaces the source's previous list.
    std::vector<EventCoverage> event_coverage;
    bool operator==(const SourceStatus&) const = default;
};

// One value a source could not read; the rest of what it read still counts.
struct SampleError {
    std::string subject;  // "mlx5_0:1 counters/symbol_error"
    std::string message;
    int code = 0;  // errno when there is one
    bool operator==(const SampleError&) const = default;
};

// The subnet manager's partition configuration (opensm's partitions.conf) as a source read it. The
// engine parses the text, so a recording holds what the file said and a replay reaches the same
// intent.
struct PartitionsConfText {
    std::string path;
    std::string text;
    std::optional<uint64_t> sm_port_guid;  // the SM's port, whom the file's SELF names
    bool operator==(const PartitionsConfText&) const = default;
};

using ObservationBody =
    std::variant<DeviceInfo, DeviceList, PortStateSample, PKeyTableSample, CounterSample,
                 AsyncEvent, MrEvent, MrInventory, SourceStatus, SampleError, PartitionsConfText,
                 GidTableSample, MrKernelBehaviour, DeviceLimits, ConsumerInventory>;

struct Observation {
    TimePoint time;
    std::string source;
    ObservationBody body;
    bool operator==(const Observation&) const = default;
};

// Stable name of an observation's type ("pkey_table", "counter", ...).
std::string_view observation_kind(const ObservationBody& body);

}  // namespace rdmadiag
