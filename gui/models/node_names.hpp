#pragma once
// What a person calls a node in a table. A subnet sweep names remote nodes by NodeGUID
// ("guid:0x0002c90300001234"), which means nothing to a reader: such a node is called by its
// NodeDescription ("Leaf017", "node0421 HCA-1"). A local device keeps its own name (mlx5_0): that
// is what every rdmadiag command takes. Device names stay the keys everywhere; tables show the
// name and give the key in tooltips.

#include <QString>
#include <string>
#include <unordered_map>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

// Whether a device name is a subnet sweep's NodeGUID name.
bool is_guid_name(std::string_view device);

class NodeNames {
public:
    void set(const Snapshot& snapshot);         // every device
    void update(const DeviceSnapshot& device);  // one device that changed
    void remove(const std::string& device);

    // "Leaf017" for a described guid:... node, else the device name.
    QString node(std::string_view device) const;
    // "Leaf017 port 3", or "mlx5_0:1" for a local device; no port names the node alone.
    QString port(std::string_view device, std::optional<uint32_t> port) const;
    QString port(const PortRef& ref) const { return port(ref.device, ref.port); }
    // "node0421 HCA-1 port 1 index 5 pkey 0x8010": a finding's subject as a person reads it.
    QString subject(const FindingSubject& subject) const;
    // "Leaf017 (guid:0x0002c90300100011)": the name with its key, for tooltips.
    QString with_key(std::string_view device) const;

private:
    std::unordered_map<std::string, QString> names_;  // only described guid:... nodes
};

}  // namespace rdmadiag::gui::models
