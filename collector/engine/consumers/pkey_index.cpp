#include "collector/engine/consumers/pkey_index.hpp"

#include <algorithm>

namespace rdmadiag::engine::consumers {

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

std::optional<uint16_t> ipoib_pkey_index(const Consumer& ipoib, const PKeyTable& table) {
    if (ipoib.parent.empty()) {
        if (table.keys.empty()) return std::nullopt;
        return uint16_t{0};
    }
    if (!ipoib.pkey) return std::nullopt;
    return find_pkey_index(table, *ipoib.pkey);
}

}  // namespace rdmadiag::engine::consumers
