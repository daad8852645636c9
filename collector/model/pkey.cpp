#include "collector/model/pkey.hpp"

#include <algorithm>
#include <cstdio>

#include "collector/common/parse_number.hpp"

namespace rdmadiag {

std::string format_pkey(uint16_t raw) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%04x", raw);
    return buf;
}

Result<uint16_t> parse_pkey(std::string_view text) {
    std::string_view s = text;
    int base = 16;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
    } else if (s.size() == 5 || s.find_first_not_of("0123456789") == std::string_view::npos) {
        // Decimal only when it cannot be read as the usual 4 hex digits.
        base = s.size() == 4 ? 16 : 10;
    }
    const auto value = common::parse_number<unsigned>(s, base);
    if (!value || *value > 0xffff) return make_error("not a P_Key: '" + std::string(text) + "'");
    return static_cast<uint16_t>(*value);
}

std::string_view to_string(PKeyView view) {
    switch (view) {
        case PKeyView::device:
            return "device";
        case PKeyView::sma:
            return "sma";
        case PKeyView::sm:
            return "sm";
        case PKeyView::cache:
            return "cache";
    }
    return "device";
}

std::optional<PKeyView> parse_pkey_view(std::string_view text) {
    for (auto v : kAllPKeyViews) {
        if (to_string(v) == text) return v;
    }
    return std::nullopt;
}

size_t PKeyTable::used() const {
    size_t n = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (pkey_is_empty(keys[i])) continue;
        bool bad = false;
        for (auto u : unreadable) bad = bad || u == i;
        if (!bad) ++n;
    }
    return n;
}

std::optional<uint16_t> find_pkey_index(const PKeyTable& table, uint16_t pkey) {
    std::optional<uint16_t> limited;
    for (size_t i = 0; i < table.keys.size(); ++i) {
        const auto index = static_cast<uint16_t>(i);
        if (std::find(table.unreadable.begin(), table.unreadable.end(), index) !=
            table.unreadable.end())
            continue;
        const uint16_t key = table.keys[i];
        if (pkey_is_empty(key) || pkey_base(key) != pkey_base(pkey)) continue;
        if (pkey_is_full(key)) return index;
        if (!limited) limited = index;
    }
    return limited;
}

}  // namespace rdmadiag
