#pragma once
// The names a person knows nodes by. A subnet sweep names each node by its NodeGUID
// ("guid:0x0008f10400000001"), stable but unreadable; such a node is called by its
// NodeDescription ("Leaf017", "node0421 HCA-1") instead. A local device keeps its own name
// (mlx5_0): that is what an administrator on the host knows it by, and what every rdmadiag
// command takes. Device names stay the keys everywhere; only what is shown changes.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "collector/model/snapshot.hpp"

namespace rdmadiag {

// "guid:0x0002c90300001234": the device name a subnet sweep gives a node.
std::string guid_device_name(uint64_t node_guid);
// Whether a device name is a subnet sweep's NodeGUID name.
bool is_guid_name(std::string_view device);
// Whether it is one exactly as guid_device_name() writes it: "guid:0x" and 16 lower-case hex
// digits.
bool is_exact_guid_name(std::string_view device);

class NodeNames {
public:
    NodeNames() = default;
    explicit NodeNames(const Snapshot& snapshot) { set(snapshot); }

    void set(const Snapshot& snapshot);         // every device
    void update(const DeviceSnapshot& device);  // one device that changed
    void remove(std::string_view device);

    // The NodeDescription a described guid:... node is known by; nullptr where the device name
    // is the name.
    const std::string* find(std::string_view device) const;
    // "Leaf017", "mlx5_0"
    std::string node(std::string_view device) const;
    // "Leaf017:3", "mlx5_0:1": as the commands write a port.
    std::string port(const PortRef& ref) const;
    // "Leaf017:3 (guid:0x0008f10400000001:3)" where the name is not the key, else the key.
    std::string port_with_key(const PortRef& ref) const;
    // "Leaf017:3 index 2": a finding's subject with its device named.
    std::string subject(const FindingSubject& subject) const;

private:
    std::map<std::string, std::string, std::less<>> names_;  // only described guid:... nodes
};

}  // namespace rdmadiag
