#include "collector/model/gid.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstdio>

#include "collector/common/parse_number.hpp"
#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {

uint64_t read_be64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

void write_be64(uint8_t* p, uint64_t v) {
    for (int i = 7; i >= 0; --i) {
        p[i] = static_cast<uint8_t>(v & 0xff);
        v >>= 8;
    }
}

constexpr std::pair<GidType, std::string_view> kGidTypeNames[] = {
    {GidType::ib, "IB"},
    {GidType::roce_v1, "RoCE v1"},
    {GidType::roce_v2, "RoCE v2"},
    {GidType::unknown, "unknown"},
};

constexpr std::pair<GidView, std::string_view> kGidViewNames[] = {
    {GidView::cache, "cache"},
    {GidView::sma, "sma"},
    {GidView::sm, "sm"},
    {GidView::netdev, "netdev"},
};

}  // namespace

Gid Gid::from_parts(uint64_t prefix, uint64_t interface_id) {
    Gid g;
    write_be64(g.raw.data(), prefix);
    write_be64(g.raw.data() + 8, interface_id);
    return g;
}

bool Gid::is_zero() const {
    for (auto b : raw) {
        if (b != 0) return false;
    }
    return true;
}

uint64_t Gid::prefix() const {
    return read_be64(raw.data());
}

uint64_t Gid::interface_id() const {
    return read_be64(raw.data() + 8);
}

std::string Gid::to_string() const {
    char buf[40];
    std::snprintf(buf, sizeof buf,
                  "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", raw[0],
                  raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10],
                  raw[11], raw[12], raw[13], raw[14], raw[15]);
    return buf;
}

Result<Gid> parse_gid(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    // inet_pton reads every IPv6 text form, the kernel's full one included; it wants a C string.
    if (text.empty() || text.size() > 45) {
        return make_error("not a GID: '" + std::string(text.substr(0, 60)) + "'");
    }
    std::string s(text);
    Gid g;
    if (inet_pton(AF_INET6, s.c_str(), g.raw.data()) != 1) {
        return make_error("not a GID: '" + s + "'");
    }
    return g;
}

Gid gid_from_ipv4(uint32_t address) {
    return Gid::from_parts(0, 0x0000ffff00000000ull | address);
}

Result<Gid> gid_from_address(std::string_view text) {
    if (text.size() > 45)
        return make_error("not an address: '" + std::string(text.substr(0, 60)) + "'");
    const std::string s(text);
    uint32_t v4 = 0;
    if (inet_pton(AF_INET, s.c_str(), &v4) == 1) return gid_from_ipv4(ntohl(v4));
    auto g = parse_gid(text);
    if (!g) return make_error("not an IPv4 or IPv6 address: '" + s + "'");
    return g;
}

Result<std::array<uint8_t, 6>> parse_mac(std::string_view text) {
    std::array<uint8_t, 6> mac{};
    auto bad = [&] {
        return make_error("not a MAC address: '" + std::string(text.substr(0, 40)) + "'");
    };
    if (text.size() != 17) return bad();
    for (size_t i = 0; i < 6; ++i) {
        if (i < 5 && text[i * 3 + 2] != ':') return bad();
        const auto v = common::parse_number<uint8_t>(text.substr(i * 3, 2), 16);
        if (!v) return bad();
        mac[i] = *v;
    }
    return mac;
}

Gid gid_from_mac(const std::array<uint8_t, 6>& mac) {
    Gid g;
    g.raw[0] = 0xfe;
    g.raw[1] = 0x80;
    g.raw[8] = static_cast<uint8_t>(mac[0] ^ 0x02);
    g.raw[9] = mac[1];
    g.raw[10] = mac[2];
    g.raw[11] = 0xff;
    g.raw[12] = 0xfe;
    g.raw[13] = mac[3];
    g.raw[14] = mac[4];
    g.raw[15] = mac[5];
    return g;
}

std::string format_subnet_prefix(uint64_t prefix) {
    return Gid::from_parts(prefix, 0).to_string().substr(0, 19);
}

Result<uint64_t> parse_subnet_prefix(std::string_view text) {
    const bool short_form =
        text.find("::") == std::string_view::npos && std::count(text.begin(), text.end(), ':') == 3;
    auto g = parse_gid(short_form ? std::string(text) + "::" : std::string(text));
    if (!g || g->interface_id() != 0) {
        return make_error("not a subnet prefix: '" + std::string(text.substr(0, 60)) +
                          "' (fe80:0000:0000:0000 or fec0::)");
    }
    return g->prefix();
}

std::string format_guid(uint64_t guid) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
    return buf;
}

std::string_view to_string(GidType type) {
    return detail::enum_name<GidType>(kGidTypeNames, type, "unknown");
}

std::optional<GidType> parse_gid_type(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    // sysfs prints "IB/RoCE v1" for the type IB and RoCE v1 share.
    if (text == "IB/RoCE v1") return GidType::roce_v1;
    return detail::enum_parse<GidType>(kGidTypeNames, text);
}

std::string_view to_string(GidView view) {
    return detail::enum_name<GidView>(kGidViewNames, view, "cache");
}

std::optional<GidView> parse_gid_view(std::string_view text) {
    return detail::enum_parse<GidView>(kGidViewNames, text);
}

const GidEntry* GidTable::at(uint16_t index) const {
    for (const auto& e : entries) {
        if (e.index == index) return &e;
    }
    return nullptr;
}

}  // namespace rdmadiag
