#include "collector/engine/gid/gid_table_diff.hpp"

#include <algorithm>

namespace rdmadiag::engine::gid {

namespace {

bool same_value(const GidEntry& a, const GidEntry& b) {
    return a.gid == b.gid && a.type == b.type && a.ndev == b.ndev;
}

// The entries of `from` that `other` lacks: at their index, or anywhere when `by_value`.
void lacking(const GidTable& from, const GidTable& other, bool by_value,
             std::vector<GidEntry>& out) {
    for (const auto& e : from.entries) {
        bool held = false;
        if (by_value) {
            held = std::any_of(other.entries.begin(), other.entries.end(),
                               [&](const GidEntry& o) { return same_value(o, e); });
        } else {
            const GidEntry* at = other.at(e.index);
            held = at != nullptr && *at == e;
        }
        if (!held) out.push_back(e);
    }
}

}  // namespace

void diff_gid_tables(const GidTable& before, const GidTable& after, GidDiff& out) {
    const bool by_value = out.view == GidView::netdev;
    out.removed.clear();
    out.added.clear();
    lacking(before, after, by_value, out.removed);
    lacking(after, before, by_value, out.added);
}

std::string describe_gid_diff(const GidDiff& diff, size_t limit) {
    std::string s;
    size_t n = 0;
    auto add = [&](char sign, const GidEntry& e) {
        if (n++ >= limit) return;
        if (!s.empty()) s += "; ";
        s += sign;
        if (diff.view != GidView::netdev) s += "index " + std::to_string(e.index) + " ";
        s += e.gid.to_string();
        if (!e.ndev.empty()) s += " (" + e.ndev + ")";
    };
    for (const auto& e : diff.removed) add('-', e);
    for (const auto& e : diff.added) add('+', e);
    if (n > limit) s += "; and " + std::to_string(n - limit) + " more";
    if (s.empty()) s = "no entry changed";
    return s;
}

}  // namespace rdmadiag::engine::gid
