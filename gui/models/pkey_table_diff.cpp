#include "gui/models/pkey_table_diff.hpp"

#include <algorithm>
#include <map>

namespace rdmadiag::gui {

std::string_view to_string(PKeyChange c) {
    switch (c) {
        case PKeyChange::added:
            return "added";
        case PKeyChange::removed:
            return "removed";
        case PKeyChange::moved:
            return "moved";
        case PKeyChange::membership:
            return "membership";
    }
    return "changed";
}

namespace {

bool unreadable(const PKeyTable& t, uint16_t index) {
    return std::find(t.unreadable.begin(), t.unreadable.end(), index) != t.unreadable.end();
}

// Base key -> (index, raw) of its first readable occurrence.
std::map<uint16_t, std::pair<uint16_t, uint16_t>> by_base(const PKeyTable& t) {
    std::map<uint16_t, std::pair<uint16_t, uint16_t>> out;
    for (size_t i = 0; i < t.keys.size(); ++i) {
        const auto idx = static_cast<uint16_t>(i);
        if (unreadable(t, idx)) continue;
        const uint16_t raw = t.keys[i];
        if (pkey_is_empty(raw)) continue;
        out.emplace(pkey_base(raw), std::make_pair(idx, raw));
    }
    return out;
}

}  // namespace

std::vector<PKeyIndexChange> diff_pkey_tables(const PKeyTable& before, const PKeyTable& after) {
    const auto old_keys = by_base(before);
    const auto new_keys = by_base(after);
    std::vector<PKeyIndexChange> out;
    for (const auto& [base, slot] : old_keys) {
        const auto it = new_keys.find(base);
        if (it == new_keys.end()) {
            if (unreadable(after, slot.first)) continue;
            out.push_back({PKeyChange::removed, slot.first, std::nullopt, slot.second, 0});
            continue;
        }
        const auto [new_index, new_raw] = it->second;
        if (new_index != slot.first) {
            out.push_back({PKeyChange::moved, new_index, slot.first, slot.second, new_raw});
        } else if (new_raw != slot.second) {
            out.push_back({PKeyChange::membership, new_index, std::nullopt, slot.second, new_raw});
        }
    }
    for (const auto& [base, slot] : new_keys) {
        if (!old_keys.contains(base) && !unreadable(before, slot.first)) {
            out.push_back({PKeyChange::added, slot.first, std::nullopt, 0, slot.second});
        }
    }
    std::sort(out.begin(), out.end(), [](const PKeyIndexChange& a, const PKeyIndexChange& b) {
        return a.index != b.index ? a.index < b.index : a.kind < b.kind;
    });
    return out;
}

}  // namespace rdmadiag::gui
