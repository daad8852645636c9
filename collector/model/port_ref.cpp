#include "collector/model/port_ref.hpp"

#include "collector/common/parse_number.hpp"

namespace rdmadiag {

std::string PortRef::to_string() const {
    return device + ":" + std::to_string(port);
}

Result<PortRef> parse_port_ref(std::string_view text) {
    if (text.empty()) return make_error("empty port name");
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return PortRef{std::string(text), 0};
    const auto dev = text.substr(0, colon);
    const auto num = text.substr(colon + 1);
    const auto port = common::parse_number<uint32_t>(num);
    if (dev.empty() || !port || *port > 255) {
        return make_error("not DEVICE[:PORT]: '" + std::string(text) + "'");
    }
    return PortRef{std::string(dev), *port};
}

}  // namespace rdmadiag
