#include "collector/engine/pkey/pkey_diff.hpp"

#include <algorithm>
#include <map>

namespace rdmadiag::engine::pkey {

namespace {

bool unreadable(const PKeyTable& t, size_t i) {
    return std::find(t.unreadable.begin(), t.unreadable.end(), i) != t.unreadable.end();
}

uint16_t key_at(const PKeyTable& t, size_t i) {
    return i < t.keys.size() ? t.keys[i] : 0;
}

bool known(const PKeyTable& a, const PKeyTable& b, size_t i) {
    return (a.unreadable.empty() || !unreadable(a, i)) &&
           (b.unreadable.empty() || !unreadable(b, i));
}

}  // namespace

std::vector<PKeyEntryChange> diff_pkey_tables(const PKeyTable& before, const PKeyTable& after) {
    std::vector<PKeyEntryChange> out;
    const size_t n = std::max(before.keys.size(), after.keys.size());
    // Base key -> indexes where it left (before only) and where it arrived (after only).
    std::map<uint16_t, std::vector<uint16_t>> left, arrived;
    for (size_t i = 0; i < n; ++i) {
        if (!known(before, after, i)) continue;
        const uint16_t o = key_at(before, i), k = key_at(after, i);
        if (o == k) continue;
        const auto idx = static_cast<uint16_t>(i);
        if (!pkey_is_empty(o) && !pkey_is_empty(k) && pkey_base(o) == pkey_base(k)) {
            out.push_back({PKeyChangeKind::membership_changed, idx, std::nullopt, o, k});
            continue;
        }
        if (!pkey_is_empty(o)) left[pkey_base(o)].push_back(idx);
        if (!pkey_is_empty(k)) arrived[pkey_base(k)].push_back(idx);
    }
    for (auto& [base, from] : left) {
        auto it = arrived.find(base);
        size_t paired = 0;
        if (it != arrived.end()) {
            auto& to = it->second;
            for (; paired < from.size() && paired < to.size(); ++paired) {
                const uint16_t o = key_at(before, from[paired]), k = key_at(after, to[paired]);
                out.push_back({PKeyChangeKind::moved, to[paired], from[paired], o, k});
                if (o != k) {
                    out.push_back(
                        {PKeyChangeKind::membership_changed, to[paired], std::nullopt, o, k});
                }
            }
            to.erase(to.begin(), to.begin() + static_cast<ptrdiff_t>(paired));
        }
        for (size_t j = paired; j < from.size(); ++j) {
            out.push_back(
                {PKeyChangeKind::removed, from[j], std::nullopt, key_at(before, from[j]), 0});
        }
    }
    for (const auto& [base, to] : arrived) {
        for (auto idx : to) {
            out.push_back({PKeyChangeKind::added, idx, std::nullopt, 0, key_at(after, idx)});
        }
    }
    // A key that arrives where another base key sat reuses that index.
    for (auto& c : out) {
        if (c.kind != PKeyChangeKind::added && c.kind != PKeyChangeKind::moved) continue;
        const uint16_t o = key_at(before, c.index);
        if (!pkey_is_empty(o) && pkey_base(o) != pkey_base(c.new_key)) c.previous_key = o;
    }
    std::stable_sort(
        out.begin(), out.end(),
        [](const PKeyEntryChange& a, const PKeyEntryChange& b) { return a.index < b.index; });
    return out;
}

bool pkey_tables_agree(const PKeyTable& a, const PKeyTable& b) {
    if (a.unreadable.empty() && b.unreadable.empty() && a.keys == b.keys) return true;
    return pkey_disagreements(a, b, 1).empty();
}

std::vector<uint16_t> pkey_disagreements(const PKeyTable& a, const PKeyTable& b, size_t limit) {
    std::vector<uint16_t> out;
    const size_t n = std::max(a.keys.size(), b.keys.size());
    for (size_t i = 0; i < n && out.size() < limit; ++i) {
        if (key_at(a, i) != key_at(b, i) && known(a, b, i)) out.push_back(static_cast<uint16_t>(i));
    }
    return out;
}

namespace {
std::string reuse_note(const PKeyEntryChange& c) {
    return c.previous_key ? ", reusing the index of " + format_pkey(*c.previous_key) : "";
}
}  // namespace

std::string describe_change(const PKeyEntryChange& c) {
    const std::string idx = std::to_string(c.index);
    switch (c.kind) {
        case PKeyChangeKind::added:
            return format_pkey(c.new_key) + " added at index " + idx + reuse_note(c);
        case PKeyChangeKind::removed:
            return format_pkey(c.old_key) + " removed from index " + idx;
        case PKeyChangeKind::moved:
            return format_pkey(c.new_key) + " moved from index " +
                   std::to_string(c.old_index.value_or(0)) + " to index " + idx + reuse_note(c);
        case PKeyChangeKind::membership_changed:
            return format_pkey(c.old_key) + " became " + format_pkey(c.new_key) + " (" +
                   (pkey_is_full(c.new_key) ? "limited -> full" : "full -> limited") +
                   ") at index " + idx;
    }
    return {};
}

std::string describe_changes(const std::vector<PKeyEntryChange>& changes, size_t limit) {
    if (changes.empty()) return "no change";
    std::string s;
    for (size_t i = 0; i < changes.size() && i < limit; ++i) {
        if (i) s += "; ";
        s += describe_change(changes[i]);
    }
    if (changes.size() > limit) s += "; and " + std::to_string(changes.size() - limit) + " more";
    return s;
}

}  // namespace rdmadiag::engine::pkey
