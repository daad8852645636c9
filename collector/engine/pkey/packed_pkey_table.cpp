#include "collector/engine/pkey/packed_pkey_table.hpp"

#include <algorithm>

namespace rdmadiag::engine::pkey {

PackedPKeyTable::PackedPKeyTable(const PKeyTable& table)
    : slots_(static_cast<uint32_t>(table.keys.size())) {
    size_t stored = table.keys.size();
    while (stored > 0 && table.keys[stored - 1] == 0) --stored;
    stored_ = static_cast<uint32_t>(stored);
    data_.reserve(stored + table.unreadable.size());
    data_.assign(table.keys.begin(), table.keys.begin() + static_cast<std::ptrdiff_t>(stored));
    data_.insert(data_.end(), table.unreadable.begin(), table.unreadable.end());
}

PKeyTable PackedPKeyTable::unpack() const {
    PKeyTable t;
    t.keys.assign(slots_, 0);
    std::copy(data_.begin(), data_.begin() + stored_, t.keys.begin());
    t.unreadable.assign(data_.begin() + stored_, data_.end());
    return t;
}

bool PackedPKeyTable::holds(const PKeyTable& table) const {
    if (table.keys.size() != slots_ || table.unreadable.size() != data_.size() - stored_)
        return false;
    if (!std::equal(data_.begin(), data_.begin() + stored_, table.keys.begin())) return false;
    if (!std::all_of(table.keys.begin() + stored_, table.keys.end(),
                     [](uint16_t k) { return k == 0; }))
        return false;
    return std::equal(data_.begin() + stored_, data_.end(), table.unreadable.begin());
}

size_t PackedPKeyTable::used() const {
    return unpack().used();
}

}  // namespace rdmadiag::engine::pkey
