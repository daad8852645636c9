#include "collector/sources/sysfs/sysfs_parsers.hpp"

#include <cerrno>
#include <cstdio>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::sysfs {

namespace {

// The text as it can be shown in an error: control bytes escaped, long values cut.
std::string quote(std::string_view text) {
    constexpr size_t kShown = 48;
    std::string out = "'";
    for (size_t i = 0; i < text.size() && i < kShown; ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (text.size() > kShown) out += "...";
    out += "'";
    return out;
}

Error bad(std::string_view what, std::string_view text) {
    return make_error("not " + std::string(what) + ": " + quote(text), EINVAL);
}

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_printable(char c) {
    return c >= 0x20 && c < 0x7f;
}

// Unsigned number in `base` covering all of `s`, no sign; false on overflow or junk.
template <class T>
bool whole_number(std::string_view s, int base, T& out) {
    if (s.empty() || s.size() > 24) return false;
    for (char c : s) {
        if (base == 16 ? !is_hex_digit(c) : !is_digit(c)) return false;
    }
    const auto v = common::parse_number<T>(s, base);
    if (v) out = *v;
    return v.has_value();
}

// "0x" followed by 1..max_digits hex digits.
template <class T>
bool hex_with_prefix(std::string_view s, size_t max_digits, T& out) {
    if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
    s.remove_prefix(2);
    return s.size() <= max_digits && whole_number(s, 16, out);
}

// "<decimal>: <name>" as node_type, state and phys_state print it.
struct Numbered {
    unsigned code = 0;
    std::string_view name;
};
bool split_numbered(std::string_view s, Numbered& out) {
    auto colon = s.find(": ");
    if (colon == std::string_view::npos) return false;
    if (!whole_number(s.substr(0, colon), 10, out.code) || out.code > 255) return false;
    out.name = s.substr(colon + 2);
    if (out.name.empty()) return false;
    for (char c : out.name) {
        if (!is_printable(c)) return false;
    }
    return true;
}

}  // namespace

Result<std::string_view> value_line(std::string_view text) {
    std::string_view s = text;
    if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    if (s.empty()) return make_error("empty file", ENODATA);
    if (s.size() > kMaxTextValue) {
        return make_error("value too long (" + std::to_string(s.size()) + " bytes): " + quote(s),
                          EOVERFLOW);
    }
    if (s.find('\n') != std::string_view::npos) return bad("a single line", text);
    for (char c : s) {
        if (!is_printable(c)) return bad("printable text", text);
    }
    if (s.back() == ' ' || s.front() == ' ') return bad("a value without surrounding spaces", text);
    return s;
}

Result<PortState> parse_port_state(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    Numbered n;
    if (!split_numbered(line, n)) return bad("a port state ('4: ACTIVE')", text);
    if (n.code > static_cast<unsigned>(PortState::active_defer)) {
        return bad("a known port state", text);
    }
    auto state = static_cast<PortState>(n.code);
    if (to_string(state) != n.name) return bad("a port state whose number and name agree", text);
    return state;
}

Result<PhysState> parse_phys_state(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    Numbered n;
    if (!split_numbered(line, n)) return bad("a physical port state ('5: LinkUp')", text);
    return PhysState{static_cast<uint8_t>(n.code), std::string(n.name)};
}

Result<uint32_t> parse_lid(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    uint32_t v = 0;
    if (!hex_with_prefix(line, 8, v)) return bad("a LID ('0x1a')", text);
    return v;
}

Result<uint8_t> parse_lid_mask_count(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    unsigned v = 0;
    if (!whole_number(line, 10, v) || v > 255) return bad("an LMC ('0')", text);
    return static_cast<uint8_t>(v);
}

Result<LinkLayer> parse_link_layer(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    if (line == "InfiniBand") return LinkLayer::infiniband;
    if (line == "Ethernet") return LinkLayer::ethernet;
    if (line == "Unknown") return LinkLayer::unknown;
    return bad("a link layer (InfiniBand, Ethernet, Unknown)", text);
}

Result<LinkRate> parse_rate(std::string_view text) {
    std::string_view s = RDMADIAG_TRY(value_line(text));
    constexpr std::string_view kUnit = " Gb/sec (";
    auto unit = s.find(kUnit);
    if (unit == std::string_view::npos || s.back() != ')') {
        return bad("a rate ('100 Gb/sec (4X EDR)')", text);
    }
    std::string_view number = s.substr(0, unit);
    std::string_view detail = s.substr(unit + kUnit.size());
    detail.remove_suffix(1);

    LinkRate rate;
    uint32_t whole = 0;
    uint32_t tenths = 0;
    auto dot = number.find('.');
    if (dot != std::string_view::npos) {
        // The kernel prints rates in half-Gb/s steps: only ".5" can follow the point.
        if (number.substr(dot) != ".5") return bad("a rate ('2.5 Gb/sec (1X)')", text);
        tenths = 5;
        number = number.substr(0, dot);
    }
    if (!whole_number(number, 10, whole) || whole > 100000) return bad("a rate", text);
    rate.deci_gbps = whole * 10 + tenths;

    auto x = detail.find('X');
    unsigned width = 0;
    if (x == std::string_view::npos || !whole_number(detail.substr(0, x), 10, width) ||
        width == 0 || width > 32) {
        return bad("a rate with a link width ('4X')", text);
    }
    rate.width = static_cast<uint8_t>(width);
    std::string_view speed = detail.substr(x + 1);
    if (!speed.empty()) {
        if (speed.front() != ' ' || speed.size() < 2) return bad("a rate with a speed name", text);
        speed.remove_prefix(1);
        for (char c : speed) {
            if (!(is_digit(c) || (c >= 'A' && c <= 'Z'))) return bad("a rate speed name", text);
        }
    }
    rate.speed = std::string(speed);
    return rate;
}

Result<uint32_t> parse_cap_mask(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    uint32_t v = 0;
    if (!hex_with_prefix(line, 8, v)) return bad("a capability mask ('0x2651e84a')", text);
    return v;
}

Result<NodeType> parse_node_type(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    Numbered n;
    if (!split_numbered(line, n)) return bad("a node type ('1: CA')", text);
    static constexpr std::string_view kNames[] = {"<unknown>", "CA",    "switch",   "router",
                                                  "RNIC",      "usNIC", "usNIC UDP"};
    if (n.code >= std::size(kNames)) {
        if (n.name != "<unknown>") return bad("a node type whose number and name agree", text);
    } else if (n.code == 0 ? n.name != "<unknown>" : kNames[n.code] != n.name) {
        return bad("a node type whose number and name agree", text);
    }
    return NodeType{static_cast<uint8_t>(n.code), std::string(n.name)};
}

Result<uint64_t> parse_guid(std::string_view text) {
    std::string_view s = RDMADIAG_TRY(value_line(text));
    if (s.size() != 19) return bad("a GUID ('0002:c903:0000:1234')", text);
    uint64_t guid = 0;
    for (size_t g = 0; g < 4; ++g) {
        std::string_view group = s.substr(g * 5, 4);
        if (g < 3 && s[g * 5 + 4] != ':') return bad("a GUID ('0002:c903:0000:1234')", text);
        uint16_t v = 0;
        if (!whole_number(group, 16, v)) return bad("a GUID ('0002:c903:0000:1234')", text);
        guid = (guid << 16) | v;
    }
    return guid;
}

Result<std::string> parse_text_attribute(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    return std::string(line);
}

Result<std::string> parse_node_desc(std::string_view text) {
    std::string_view s = text;
    if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    if (s.empty()) return make_error("empty file", ENODATA);
    if (s.size() > kMaxNodeDesc) {
        return make_error("node description longer than 64 bytes: " + quote(s), EOVERFLOW);
    }
    for (char c : s) {
        if (!is_printable(c)) return bad("a one-line node description", text);
    }
    return std::string(s);
}

Result<uint16_t> parse_pkey_entry(std::string_view text) {
    auto line = RDMADIAG_TRY(value_line(text));
    uint16_t v = 0;
    if (line.size() != 6 || !hex_with_prefix(line, 4, v)) return bad("a P_Key ('0xffff')", text);
    return v;
}

Result<Gid> parse_gid(std::string_view text) {
    std::string_view s = RDMADIAG_TRY(value_line(text));
    if (s.size() != 39) return bad("a GID ('fe80:0000:0000:0000:0002:c903:0000:1235')", text);
    Gid gid;
    for (size_t g = 0; g < 8; ++g) {
        if (g < 7 && s[g * 5 + 4] != ':')
            return bad("a GID (eight groups of four hex digits)", text);
        uint16_t v = 0;
        if (!whole_number(s.substr(g * 5, 4), 16, v)) {
            return bad("a GID (eight groups of four hex digits)", text);
        }
        gid.raw[g * 2] = static_cast<uint8_t>(v >> 8);
        gid.raw[g * 2 + 1] = static_cast<uint8_t>(v & 0xff);
    }
    return gid;
}

Result<GidType> parse_gid_attr_type(std::string_view text) {
    std::string_view s = RDMADIAG_TRY(value_line(text));
    if (s == "IB/RoCE v1" || s == "RoCE v1") return GidType::roce_v1;
    if (s == "RoCE v2") return GidType::roce_v2;
    return bad("a GID type ('IB/RoCE v1' or 'RoCE v2')", text);
}

Result<std::string> parse_gid_attr_ndev(std::string_view text) {
    std::string_view s = RDMADIAG_TRY(value_line(text));
    // IFNAMSIZ is 16 with its NUL; a name never holds '/', ':' or blanks.
    if (s.empty() || s.size() > 15 || s.find_first_of("/: \t") != std::string_view::npos) {
        return bad("a netdev name", text);
    }
    return std::string(s);
}

bool is_no_pma(std::string_view text) {
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    return text == "N/A (no PMA)";
}

Result<uint64_t> parse_counter(std::string_view text) {
    if (is_no_pma(text)) {
        return make_error("N/A (no PMA): the device has no performance management agent", ENOTSUP);
    }
    auto line = RDMADIAG_TRY(value_line(text));
    uint64_t v = 0;
    if (line.size() > 20 || !whole_number(line, 10, v)) {
        if (!line.empty() && line.front() == '-') return bad("a non-negative counter", text);
        bool digits_only = true;
        for (char c : line) digits_only = digits_only && is_digit(c);
        if (digits_only) return make_error("counter out of 64-bit range: " + quote(text), ERANGE);
        return bad("a decimal counter", text);
    }
    return v;
}

Result<CounterReading> parse_counter_reading(std::string_view text) {
    if (is_no_pma(text)) return CounterReading{};
    return CounterReading{RDMADIAG_TRY(parse_counter(text))};
}

bool is_unavailable_read(int code) {
    return code == ENOSYS || code == EINVAL || code == EOPNOTSUPP;
}

Result<uint32_t> parse_table_index(std::string_view name) {
    uint32_t v = 0;
    // No leading zeros: the kernel names entries "%d".
    if (name.size() > 1 && name.front() == '0') return bad("a table index", name);
    if (name.size() > 6 || !whole_number(name, 10, v)) return bad("a table index", name);
    return v;
}

}  // namespace rdmadiag::sysfs
