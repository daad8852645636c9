#include "collector/engine/consumers/pkey_index.hpp"

namespace rdmadiag::engine::consumers {

std::optional<uint16_t> ipoib_pkey_index(const Consumer& ipoib, const PKeyTable& table) {
    if (ipoib.parent.empty()) {
        if (table.keys.empty()) return std::nullopt;
        return uint16_t{0};
    }
    if (!ipoib.pkey) return std::nullopt;
    return find_pkey_index(table, *ipoib.pkey);
}

}  // namespace rdmadiag::engine::consumers
