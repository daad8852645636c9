#pragma once
// Names a port: a local device by its kernel name (mlx5_0), or a remote node reached over MADs
// by "lid:<n>" / "guid:0x..." style device names chosen by the MAD source.

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag {

struct PortRef {
    std::string device;
    uint32_t port = 0;

    auto operator<=>(const PortRef&) const = default;
    bool operator==(const PortRef&) const = default;

    std::string to_string() const;  // "mlx5_0:1"
};

// Parses "DEV:PORT" or "DEV" (port 0 then means "every port"). Device names may contain ':'
// only before the last one.
Result<PortRef> parse_port_ref(std::string_view text);

}  // namespace rdmadiag
