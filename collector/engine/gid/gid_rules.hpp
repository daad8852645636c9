#pragma once
// The rule ids of the GID module and the comparisons its rules are built on.

#include <string>
#include <vector>

#include "collector/model/gid.hpp"

namespace rdmadiag::engine::gid {

inline constexpr const char* kRuleCacheStale = "gid.cache_stale";
inline constexpr const char* kRulePrefixMismatch = "gid.prefix_mismatch";
inline constexpr const char* kRuleDuplicate = "gid.duplicate";
inline constexpr const char* kRuleRoceMissing = "roce.gid_missing";
inline constexpr const char* kRuleRoceStale = "roce.gid_stale";

// InfiniBand: the indexes where the cache does not hold what the port holds (an index the port
// has that the cache lacks, or holds with another GID).
struct IbMismatch {
    uint16_t index = 0;
    std::optional<Gid> cache;
    Gid port;
};
std::vector<IbMismatch> compare_ib(const GidTable& cache, const GidTable& port);

// RoCE: the netdev's addresses without their GID in the cache (`missing`), and the cache's GIDs
// of a netdev the view covers whose address the netdev no longer has (`stale`). A GID matches
// when the value and the netdev agree; its RoCE type does not matter. Nothing is missing from a
// cache read with unreadable entries.
struct RoceMismatch {
    std::vector<GidEntry> missing;
    std::vector<GidEntry> stale;
    bool empty() const { return missing.empty() && stale.empty(); }
};
RoceMismatch compare_roce(const GidTable& cache, const GidTable& netdev);

// Entries of one table holding the same GID, type and netdev at two indexes.
std::vector<std::pair<GidEntry, GidEntry>> duplicates_in_table(const GidTable& table);

std::string list_entries(const std::vector<GidEntry>& entries, size_t limit);

}  // namespace rdmadiag::engine::gid
