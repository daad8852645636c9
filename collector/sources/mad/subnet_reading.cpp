#include "collector/sources/mad/subnet_reading.hpp"

#include <algorithm>

namespace rdmadiag::mad {

std::string Route::describe() const {
    if (!dr) return "lid " + std::to_string(lid);
    std::string text = "dr 0";
    for (uint8_t hop : path) text += "," + std::to_string(hop);
    return text;
}

uint16_t NodeReading::lid() const {
    if (!route.dr && route.lid != 0) return route.lid;
    for (const auto& p : ports) {
        if (p.info && p.info->lid != 0) return p.info->lid;
    }
    return 0;
}

bool port_has_gids(const NodeReading& node, const PortReading& port) {
    return !node.is_switch() || port.port == 0;
}

std::optional<uint64_t> known_port_guid(const NodeReading& node, const PortReading& port) {
    if (!node.is_switch()) return port.guid;
    if (port.port != 0) return std::nullopt;
    return node.info.port_guid;
}

bool node_answered(const NodeReading& node) {
    return std::any_of(node.ports.begin(), node.ports.end(),
                       [](const PortReading& p) { return p.info.has_value(); });
}

}  // namespace rdmadiag::mad
