#include "collector/engine/gid/gid_table_diff.hpp"

#include <algorithm>

namespace rdmadiag::engine::gid {

void diff_gid_tables(const GidTable& before, const GidTable& after, GidDiff& out) {
    out.removed.clear();
    out.added.clear();
    for (const auto& e : before.entries) {
        const GidEntry* now = after.at(e.index);
        if (now == nullptr || !(*now == e)) out.removed.push_back(e);
    }
    for (const auto& e : after.entries) {
        const GidEntry* was = before.at(e.index);
        if (was == nullptr || !(*was == e)) out.added.push_back(e);
    }
}

std::string describe_gid_diff(const GidDiff& diff, size_t limit) {
    std::string s;
    size_t n = 0;
    auto add = [&](char sign, const GidEntry& e) {
        if (n++ >= limit) return;
        if (!s.empty()) s += "; ";
        s += sign;
        s += "index " + std::to_string(e.index) + " " + e.gid.to_string();
        if (!e.ndev.empty()) s += " (" + e.ndev + ")";
    };
    for (const auto& e : diff.removed) add('-', e);
    for (const auto& e : diff.added) add('+', e);
    if (n > limit) s += "; and " + std::to_string(n - limit) + " more";
    if (s.empty()) s = "no entry changed";
    return s;
}

}  // namespace rdmadiag::engine::gid
