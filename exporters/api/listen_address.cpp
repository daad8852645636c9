#include "exporters/api/listen_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::api {

namespace {

bool parse_port(std::string_view p, uint16_t& out) {
    const auto v = common::parse_number<unsigned>(p);
    if (!v || *v > 65535) return false;
    out = static_cast<uint16_t>(*v);
    return true;
}

bool is_ip(int family, const std::string& host) {
    unsigned char buf[sizeof(in6_addr)];
    return inet_pton(family, host.c_str(), buf) == 1;
}

}  // namespace

Result<ListenAddress> parse_listen_address(std::string_view text) {
    auto bad = [&](std::string_view expected) {
        return make_error("listen address '" + std::string(text) + "': expected " +
                          std::string(expected));
    };
    ListenAddress out;
    if (!text.empty() && text.front() == '[') {
        const size_t close = text.find("]:");
        if (close == std::string_view::npos || !parse_port(text.substr(close + 2), out.port))
            return bad("[IPV6]:PORT");
        out.host = std::string(text.substr(1, close - 1));
        if (!is_ip(AF_INET6, out.host)) return bad("an IPv6 address in [IPV6]:PORT");
        out.family = ListenAddress::Family::ipv6;
        return out;
    }
    const size_t colon = text.rfind(':');
    const std::string_view port = colon == std::string_view::npos ? text : text.substr(colon + 1);
    if (!parse_port(port, out.port)) return bad("HOST:PORT, :PORT or [IPV6]:PORT");
    if (colon == std::string_view::npos || colon == 0) return out;  // every address
    out.host = std::string(text.substr(0, colon));
    if (out.host.find(':') != std::string::npos) return bad("brackets around an IPv6 address");
    if (!is_ip(AF_INET, out.host))
        return bad("an IPv4 address in HOST:PORT (names are not looked up)");
    out.family = ListenAddress::Family::ipv4;
    return out;
}

}  // namespace rdmadiag::api
