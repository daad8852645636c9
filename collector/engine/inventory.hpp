#pragma once
// The engine's record of what exists: devices, ports, their last state readings and counters,
// the sources and their health, recent async events and sample errors.

#include <deque>
#include <map>
#include <optional>
#include <string>

#include "collector/engine/counter_tracker.hpp"
#include "collector/model/observation.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag {

struct InventoryLimits {
    size_t events = 1000;
    size_t errors = 200;
};

class Inventory {
public:
    explicit Inventory(InventoryLimits limits = {}) : limits_(limits) {}

    // Applies an observation; returns the counter change for CounterSample bodies.
    std::optional<CounterChange> observe(const Observation& obs);

    const DeviceInfo* device(std::string_view name) const;
    Transport transport(std::string_view device) const;
    const CounterState* counter(const PortRef& port, CounterKind kind,
                                const std::string& name) const;
    bool has_source(std::string_view name) const { return sources_.count(std::string(name)) != 0; }

    // Fills devices, ports (without P_Key state), counters, sources, events and errors.
    void fill(Snapshot& snapshot) const;

private:
    struct PortEntry {
        PortStateSample info;
        bool present = true;
        std::map<std::pair<CounterKind, std::string>, CounterState> counters;
        TimePoint updated;
    };
    struct DeviceEntry {
        DeviceInfo info;
        bool present = true;
        std::string source;
        std::map<uint32_t, PortEntry> ports;
        TimePoint updated;
    };

    DeviceEntry& device_entry(const std::string& name, const Observation& obs);
    PortEntry& port_entry(const PortRef& ref, const Observation& obs);

    InventoryLimits limits_;
    std::map<std::string, DeviceEntry, std::less<>> devices_;
    std::map<std::string, SourceSnapshot, std::less<>> sources_;
    std::deque<EventRecord> events_;
    std::deque<ErrorRecord> errors_;
};

// The transport an MR or port follows, from the device's node type and a port's link layer.
Transport infer_transport(const DeviceInfo& info, std::optional<LinkLayer> link_layer);

}  // namespace rdmadiag
