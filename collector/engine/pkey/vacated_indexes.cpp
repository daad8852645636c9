#include "collector/engine/pkey/vacated_indexes.hpp"

#include <algorithm>

namespace rdmadiag::engine::pkey {

namespace {

bool empty_in(const PKeyTable& t, uint16_t index) {
    if (std::find(t.unreadable.begin(), t.unreadable.end(), index) != t.unreadable.end())
        return false;  // unknown: neither filled nor emptied
    return index >= t.keys.size() || pkey_is_empty(t.keys[index]);
}

bool unreadable_in(const PKeyTable& t, uint16_t index) {
    return std::find(t.unreadable.begin(), t.unreadable.end(), index) != t.unreadable.end();
}

}  // namespace

void VacatedIndexes::apply(std::vector<PKeyEntryChange>& changes, const PKeyTable& after) {
    auto find = [this](uint16_t index) {
        return std::find_if(entries_.begin(), entries_.end(),
                            [index](const VacatedIndex& v) { return v.index == index; });
    };
    for (auto& c : changes) {
        if (c.kind != PKeyChangeKind::added && c.kind != PKeyChangeKind::moved) continue;
        if (c.previous_key) continue;
        auto it = find(c.index);
        if (it != entries_.end() && pkey_base(it->key) != pkey_base(c.new_key))
            c.previous_key = it->key;
    }
    // Forget what was filled (whatever filled it), then remember what this change emptied.
    std::erase_if(entries_, [&](const VacatedIndex& v) {
        return !empty_in(after, v.index) && !unreadable_in(after, v.index);
    });
    auto remember = [&](uint16_t index, uint16_t key) {
        if (!empty_in(after, index)) return;
        auto it = find(index);
        if (it != entries_.end()) {
            it->key = key;
        } else {
            entries_.push_back({index, key});
        }
    };
    for (const auto& c : changes) {
        if (c.kind == PKeyChangeKind::removed) remember(c.index, c.old_key);
        if (c.kind == PKeyChangeKind::moved && c.old_index) remember(*c.old_index, c.old_key);
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const VacatedIndex& a, const VacatedIndex& b) { return a.index < b.index; });
}

}  // namespace rdmadiag::engine::pkey
