#pragma once
// Turns a scenario's steps into the effects that actually happen, each at its own time: a P_Key
// edit becomes the SM's intent changing, then the port being programmed, then (maybe) the event;
// a port flap becomes the state change and its event.

#include <vector>

#include "collector/sim/scenario.hpp"

namespace rdmadiag::sim {

// A P_Key edit applied to some of the port's views at one moment.
struct TableEffect {
    PKeyEdit edit;
    ViewMask views = 0;
    bool operator==(const TableEffect&) const = default;
};

// A prefix change reaching some of a port's GID views at one moment.
enum class GidTarget : uint8_t { sm, port, cache };
struct GidPrefixEffect {
    PortRef port;
    uint64_t prefix = 0;
    GidTarget target = GidTarget::port;
    bool operator==(const GidPrefixEffect&) const = default;
};

// An address reaching the netdev, or the kernel's GID cache.
struct AddressEffect {
    PortRef port;
    Gid address;
    bool add = true;
    bool cache = false;  // false: the netdev
    bool operator==(const AddressEffect&) const = default;
};

// A holder's process leaving: `gone` its MRs stay listed without an owner, then they leave.
struct HolderExitEffect {
    uint32_t pid = 0;
    bool gone = false;  // false: the MRs lose their owner; true: they leave the listing
    bool operator==(const HolderExitEffect&) const = default;
};

using EffectAction =
    std::variant<TableEffect, CounterStep, PortStep, EventStep, MrStep, DeviceStep, EnforcementStep,
                 GidPrefixEffect, AddressEffect, HolderExitEffect, HolderRateStep>;

struct Effect {
    Duration at{};
    size_t line = 0;  // the step it comes from
    size_t column = 0;
    EffectAction action;
    bool operator==(const Effect&) const = default;
};

// Effects in time order; effects at the same time keep the order of the steps they come from.
// An edit that names no views touches every view its port exposes.
std::vector<Effect> compile_timeline(const Scenario& scenario);

// The time of the last effect (zero for an empty timeline).
Duration last_effect_time(const std::vector<Effect>& effects);

}  // namespace rdmadiag::sim
