#include "collector/model/snapshot.hpp"

namespace rdmadiag {

const DeviceSnapshot* Snapshot::find_device(std::string_view name) const {
    for (const auto& d : devices) {
        if (d.info.device == name) return &d;
    }
    return nullptr;
}

const PortSnapshot* Snapshot::find_port(const PortRef& ref) const {
    const auto* dev = find_device(ref.device);
    if (!dev) return nullptr;
    for (const auto& p : dev->ports) {
        if (p.ref.port == ref.port) return &p;
    }
    return nullptr;
}

}  // namespace rdmadiag
