#pragma once
// The engine's record of what exists: devices, ports, their last state readings and counters,
// the sources and their health, recent async events and sample errors.

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/engine/counter_names.hpp"
#include "collector/engine/counter_tracker.hpp"
#include "collector/model/observation.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::engine {

struct InventoryLimits {
    size_t events = 1000;
    size_t errors = 200;
};

class Inventory {
public:
    explicit Inventory(InventoryLimits limits = {}) : limits_(limits) {}

    // Applies an observation. Returns true when it changed what a snapshot shows beyond the times
    // things were read: a reading that finds what the last one found returns false.
    bool observe(const Observation& obs);

    const DeviceInfo* device(std::string_view name) const;
    Transport transport(std::string_view device) const;
    const CounterTrack* counter(const PortRef& port, CounterKind kind, std::string_view name) const;
    const std::string& counter_name(const CounterTrack& c) const { return names_.name(c.name_id); }
    bool has_source(std::string_view name) const { return sources_.count(std::string(name)) != 0; }
    // The port's last state reading (nullptr when none was seen).
    const PortStateSample* port_info(const PortRef& port) const;

    // Fills the devices, their ports and counters. A device nothing was read of since the last
    // fill, and that is not in `rebuild`, is taken from `previous` as it is; the others
    // are built afresh, `contribute` adding the modules' part to each of their ports.
    void fill_devices(Snapshot& snapshot, const Snapshot* previous,
                      const std::set<std::string, std::less<>>& rebuild,
                      const std::function<void(PortSnapshot&)>& contribute);
    // Fills sources, events and errors.
    void fill_records(Snapshot& snapshot) const;
    // Both, every device built afresh (tests, one-shot readings).
    void fill(Snapshot& snapshot) const;

private:
    // The state of a port is held flat: a fabric has thousands of ports, each with a handful to a
    // few dozen counters, and per-node maps cost more than the counters themselves.
    struct PortEntry {
        PortStateSample info;
        TimePoint updated;
        // In (kind, name) order, the order the snapshot lists them in.
        std::vector<CounterTrack> counters;
        // Where the last reading landed: sources read a port's counters in the same order every
        // round, so the next one is usually just after it.
        uint32_t cursor = 0;
        bool present = true;
    };
    struct DeviceEntry {
        DeviceInfo info;
        bool present = true;
        std::string source;
        std::vector<PortEntry> ports;  // by port number
        TimePoint updated;
        bool touched = true;  // read or changed since the last fill_devices()
    };

    DeviceSnapshot build_device(const std::string& name, const DeviceEntry& dev) const;

    // `fresh`: the device was not there, or not present, before this observation.
    DeviceEntry& device_entry(const std::string& name, const Observation& obs, bool& fresh);
    // `fresh`: the port (or its device) was not there, or not present, before this observation.
    PortEntry& port_entry(const PortRef& ref, const Observation& obs, bool& fresh);
    const PortEntry* find_port(const PortRef& ref) const;
    static CounterTrack* find_counter(PortEntry& port, CounterKind kind, uint32_t name_id);
    CounterTrack& add_counter(PortEntry& port, CounterKind kind, uint32_t name_id);

    InventoryLimits limits_;
    CounterNames names_;
    std::map<std::string, DeviceEntry, std::less<>> devices_;
    std::map<std::string, SourceSnapshot, std::less<>> sources_;
    std::deque<EventRecord> events_;
    std::deque<ErrorRecord> errors_;
};

// The transport an MR or port follows, from the device's node type and a port's link layer.
Transport infer_transport(const DeviceInfo& info, std::optional<LinkLayer> link_layer);

}  // namespace rdmadiag::engine
