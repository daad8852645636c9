#include "collector/engine/gid/gid_rules.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace rdmadiag::engine::gid {

std::vector<IbMismatch> compare_ib(const GidTable& cache, const GidTable& port) {
    std::vector<IbMismatch> out;
    for (const auto& p : port.entries) {
        if (std::find(cache.unreadable.begin(), cache.unreadable.end(), p.index) !=
            cache.unreadable.end()) {
            continue;  // not read this time: proves nothing
        }
        const GidEntry* c = cache.at(p.index);
        if (c != nullptr && c->gid == p.gid) continue;
        IbMismatch m;
        m.index = p.index;
        if (c != nullptr) m.cache = c->gid;
        m.port = p.gid;
        out.push_back(m);
    }
    return out;
}

RoceMismatch compare_roce(const GidTable& cache, const GidTable& netdev) {
    RoceMismatch out;
    std::set<std::pair<Gid, std::string_view>> in_cache;
    for (const auto& e : cache.entries) in_cache.emplace(e.gid, e.ndev);
    std::set<std::pair<Gid, std::string_view>> on_netdev;
    std::set<std::string_view> covered;
    for (const auto& e : netdev.entries) {
        on_netdev.emplace(e.gid, e.ndev);
        covered.insert(e.ndev);
        if (!in_cache.contains({e.gid, e.ndev})) out.missing.push_back(e);
    }
    for (const auto& e : cache.entries) {
        if (e.type == GidType::ib || !covered.contains(e.ndev)) continue;
        if (!on_netdev.contains({e.gid, e.ndev})) out.stale.push_back(e);
    }
    // An entry that could not be read may be the one that seems missing.
    if (!cache.unreadable.empty()) out.missing.clear();
    return out;
}

std::vector<std::pair<GidEntry, GidEntry>> duplicates_in_table(const GidTable& table) {
    std::vector<std::pair<GidEntry, GidEntry>> out;
    std::map<std::tuple<Gid, GidType, std::string_view>, const GidEntry*> first;
    for (const auto& e : table.entries) {
        auto [it, fresh] =
            first.emplace(std::make_tuple(e.gid, e.type, std::string_view(e.ndev)), &e);
        if (!fresh) out.emplace_back(*it->second, e);
    }
    return out;
}

std::string list_entries(const std::vector<GidEntry>& entries, size_t limit) {
    std::string s;
    for (size_t i = 0; i < entries.size() && i < limit; ++i) {
        if (!s.empty()) s += ", ";
        s += entries[i].gid.to_string();
        if (!entries[i].ndev.empty()) s += " on " + entries[i].ndev;
        if (entries[i].type != GidType::unknown)
            s += " (" + std::string(to_string(entries[i].type)) + ")";
    }
    if (entries.size() > limit) s += " and " + std::to_string(entries.size() - limit) + " more";
    return s;
}

}  // namespace rdmadiag::engine::gid
