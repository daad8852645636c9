#pragma once
// What a person calls a node in a table: the rule is collector/model/node_names.hpp's; this gives
// its names as the GUI shows them. Device names stay the keys everywhere; tables show the name
// and give the key in tooltips.

#include <QString>
#include <optional>
#include <string>
#include <string_view>

#include "collector/model/node_names.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

class NodeNames {
public:
    void set(const Snapshot& snapshot) { names_.set(snapshot); }
    void update(const DeviceSnapshot& device) { names_.update(device); }
    void remove(const std::string& device) { names_.remove(device); }

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
    rdmadiag::NodeNames names_;
};

}  // namespace rdmadiag::gui::models
