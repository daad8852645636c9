#pragma once
// The one reading of --web.listen-address. Hosts are IP literals (a name would make the
// listener depend on the resolver at start-up and on reload):
//   ":9857", "9857"     every address: IPv6 and IPv4 on one dual-stack socket, or IPv4 alone
//                       on a host without IPv6
//   "0.0.0.0:9857"      every IPv4 address
//   "[::]:9857"         every IPv6 address (IPv6 only)
//   "127.0.0.1:9857", "[::1]:9857"   that address
// Port 0 lets the kernel pick a free port.

#include <cstdint>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag::api {

struct ListenAddress {
    enum class Family { any, ipv4, ipv6 };
    Family family = Family::any;
    std::string host;  // the IP literal without brackets; empty for Family::any
    uint16_t port = 0;
};

Result<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace rdmadiag::api
