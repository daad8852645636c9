#pragma once
// Turns one SubnetReading into Observations. Naming: in local scope a device keeps its umad CA
// name (as sysfs names it); in subnet scope every node is "guid:0x<16 hex digits>" of its
// NodeGUID (stable across LID changes and re-sweeps), with its LID in DeviceInfo.lid and each
// port's LID in PortStateSample.lid.

#include <functional>
#include <string>
#include <vector>

#include "collector/model/node_names.hpp"
#include "collector/model/observation.hpp"
#include "collector/sources/mad/subnet_reading.hpp"

namespace rdmadiag::mad {

using rdmadiag::guid_device_name;

struct ObservationNaming {
    // Device name for a node; empty: use guid_device_name.
    std::string local_name;
    uint64_t local_guid = 0;
};

// `whole`: the reading covers every node of the scope, so its device list says which nodes are
// gone; a reading of one port (a refresh) must not.
std::vector<Observation> reading_to_observations(const SubnetReading& reading,
                                                 const ObservationNaming& naming, TimePoint now,
                                                 const std::string& source, bool whole = true);
// The same, handed to `emit` one at a time: a subnet's observations are not held twice.
void emit_observations(const SubnetReading& reading, const ObservationNaming& naming, TimePoint now,
                       const std::string& source, bool whole,
                       const std::function<void(Observation)>& emit_one);

}  // namespace rdmadiag::mad
