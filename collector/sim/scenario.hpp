#pragma once
// A simulated fabric scenario as plain data: the fabric it starts from and the timeline of things
// that happen to it. docs/scenarios.md describes the text form; scenario_parser.hpp reads it.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "collector/model/observation.hpp"

namespace rdmadiag::sim {

// What a narrow counter does at its maximum: IB PMA counters stop there, others start over.
enum class CounterOverflow : uint8_t { saturate, wrap };

// Bit set of the P_Key views a port exposes or an edit touches (never `cache`: that view is the
// engine's emulation of an event-driven consumer).
using ViewMask = uint8_t;
constexpr ViewMask view_bit(PKeyView v) {
    return static_cast<ViewMask>(1u << static_cast<unsigned>(v));
}
constexpr ViewMask kDeviceView = view_bit(PKeyView::device);
constexpr ViewMask kSmaView = view_bit(PKeyView::sma);
constexpr ViewMask kSmView = view_bit(PKeyView::sm);
constexpr ViewMask kFabricViews = kDeviceView | kSmaView | kSmView;
constexpr PKeyView kFabricViewOrder[] = {PKeyView::device, PKeyView::sma, PKeyView::sm};

struct ScenarioCounter {
    std::string name;
    CounterKind kind = CounterKind::pma;
    uint8_t width = 64;
    CounterOverflow overflow = CounterOverflow::wrap;
    uint64_t value = 0;
    uint64_t per_second = 0;  // steady growth while the port is ACTIVE (traffic counters)
    bool operator==(const ScenarioCounter&) const = default;
};

struct ScenarioPort {
    PortStateSample state;         // state.port names the port
    ViewMask views = kDeviceView;  // 0: the port has no P_Key table (iWARP)
    PKeyTable device_table;        // initial table, the same in every view the port exposes
    // InfiniBand ports with a port GUID have GIDs: index 0 is this prefix and the GUID, the same
    // in the kernel's cache, the port (sma) and the SM's records (sm) at the start.
    uint64_t gid_prefix = 0xfe80000000000000ull;
    // An Ethernet port with a netdev has RoCE GIDs: the MAC's link-local GID and one for each
    // address, in the kernel's cache (one RoCE v2 entry each, as rxe has) and the netdev view.
    std::string netdev;
    std::optional<std::array<uint8_t, 6>> mac;
    std::vector<Gid> addresses;
    std::vector<ScenarioCounter> counters;
    bool operator==(const ScenarioPort&) const = default;
};

struct ScenarioMr {
    std::string device;
    uint64_t id = 0;
    MrOwner owner;
    std::optional<uint32_t> key;
    bool operator==(const ScenarioMr&) const = default;
};

// A process, or a kernel user, holding MRs on a device as RDMA netlink lists them: `mrs` at the
// start and `per_second` more every second after it (a leak), each `size` bytes.
struct ScenarioMrHolder {
    std::string device;
    std::optional<uint32_t> pid;  // none: a kernel user called `comm`
    std::string comm;
    uint64_t mrs = 0;
    uint64_t size = 4096;
    uint64_t per_second = 0;
    bool operator==(const ScenarioMrHolder&) const = default;
};

// An IPoIB interface of the simulated host on an InfiniBand port: a parent (no `parent`) sends on
// P_Key index 0; a child holds `pkey` (with the full-membership bit, as the kernel sets it).
struct ScenarioIpoib {
    std::string name;
    PortRef port;
    std::string parent;
    uint16_t pkey = 0;
    bool connected = false;
    bool operator==(const ScenarioIpoib&) const = default;
};

// --- Timeline steps -----------------------------------------------------------------------------

enum class PKeyOp : uint8_t { set, clear, move, flip, table };

// One P_Key table edit as a subnet manager makes it: its intent (the sm view) changes first, the
// port's tables (device, sma) follow `delay` later, and PKEY_CHANGE comes `event_delay` after that
// (nullopt: the event is lost).
struct PKeyEdit {
    PortRef port;
    PKeyOp op = PKeyOp::set;
    uint16_t index = 0;  // set, clear: the slot; move: the destination
    uint16_t key = 0;    // set: the new value; move, flip: the key (matched by its base)
    std::vector<std::pair<uint16_t, uint16_t>> entries;  // table: index -> key
    ViewMask views = 0;                                  // 0: every view the port exposes
    Duration delay = std::chrono::milliseconds(100);
    std::optional<Duration> event_delay = Duration::zero();
    bool operator==(const PKeyEdit&) const = default;
};

enum class CounterOp : uint8_t { add, set, reset };

struct CounterStep {
    PortRef port;
    CounterOp op = CounterOp::add;
    std::string name;  // empty with reset: every counter of the port
    uint64_t amount = 0;
    bool operator==(const CounterStep&) const = default;
};

struct PortStep {
    PortRef port;
    bool up = false;
    PortState state = PortState::down;
    uint8_t phys_state = 2;
    std::optional<AsyncEventType> event;  // nullopt: none
    bool operator==(const PortStep&) const = default;
};

struct EventStep {
    AsyncEvent event;
    bool operator==(const EventStep&) const = default;
};

struct MrStep {
    std::string device;
    uint64_t id = 0;
    MrOp op = MrOp::reg;
    WcStatus status = WcStatus::success;
    std::optional<int> rc;
    bool operator==(const MrStep&) const = default;
};

struct DeviceStep {
    std::string device;
    bool present = false;
    bool operator==(const DeviceStep&) const = default;
};

// A switch's external port starts or stops checking P_Keys: PortInfo's
// PartitionEnforcementInbound and PartitionEnforcementOutbound.
struct EnforcementStep {
    PortRef port;
    bool inbound = false;
    bool outbound = false;
    bool operator==(const EnforcementStep&) const = default;
};

// The SM gives a port another subnet prefix: its records (sm) change first, the port (sma)
// `delay` later, and the kernel's GID cache when GID_CHANGE comes `event_delay` after that
// (nullopt: the event is lost and the cache keeps the old prefix).
struct GidPrefixStep {
    PortRef port;
    uint64_t prefix = 0;
    Duration delay = std::chrono::milliseconds(100);
    std::optional<Duration> event_delay = Duration::zero();
    bool operator==(const GidPrefixStep&) const = default;
};

// An address is added to or removed from a RoCE port's netdev: the netdev view changes at once,
// and the kernel's GID cache `event_delay` later with GID_CHANGE (nullopt: the kernel's update
// was dropped and the cache never follows).
struct AddressStep {
    PortRef port;
    Gid address;
    bool add = true;
    std::optional<Duration> event_delay = Duration::zero();
    bool operator==(const AddressStep&) const = default;
};

// A holder process exits: its MRs leave the listing at once, or stay listed without an owner for
// `linger` (a child that inherited its verbs file keeps them) and then leave; nullopt: they stay.
struct HolderExitStep {
    uint32_t pid = 0;
    std::optional<Duration> linger = Duration::zero();
    bool operator==(const HolderExitStep&) const = default;
};

// A holder registers `per_second` MRs a second from now on (0: it stops).
struct HolderRateStep {
    uint32_t pid = 0;
    uint64_t per_second = 0;
    bool operator==(const HolderRateStep&) const = default;
};

using StepAction =
    std::variant<PKeyEdit, CounterStep, PortStep, EventStep, MrStep, DeviceStep, EnforcementStep,
                 GidPrefixStep, AddressStep, HolderExitStep, HolderRateStep>;

struct Step {
    Duration at{};  // from the start of the scenario (or of the loop iteration)
    size_t line = 0;
    size_t column = 0;
    StepAction action;
    bool operator==(const Step&) const = default;
};

struct Scenario {
    std::string name;   // shipped name or file stem; set by the loader
    std::string title;  // one line, from `title`
    std::vector<DeviceInfo> devices;
    std::vector<ScenarioPort> ports;
    std::vector<ScenarioMr> mrs;
    std::vector<ScenarioMrHolder> mr_holders;
    std::vector<ScenarioIpoib> ipoib;        // in declaration order: a parent before its children
    std::map<std::string, uint64_t> max_mr;  // a device's max_mr, where declared
    std::vector<Step> steps;                 // in time order
    Duration end{};                          // natural end; the loop period when `loop` is set
    bool loop = false;
    // The SM's partitions.conf the scenario carries (its `partitions.conf` lines), handed to the
    // engine at time zero as the partitions source hands a file over. `path` names the scenario's
    // file; the loader sets it.
    std::optional<PartitionsConfText> partitions_conf;
    bool operator==(const Scenario&) const = default;
};

std::string_view to_string(PKeyOp op);  // "pkey-set"
std::string_view to_string(CounterOverflow o);

}  // namespace rdmadiag::sim
