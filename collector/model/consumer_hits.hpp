#pragma once
// Which consumers a consumer.* finding is about. The engine raises the findings per port; a sink
// that lists a port's consumers (the GUI's Consumers pane) marks the ones each finding hits by
// the same rules the engine judged them with.

#include <string_view>

#include "collector/model/consumer.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/gid_state.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::consumer_rule {

inline constexpr const char* pkey_absent = "consumer.pkey_absent";
inline constexpr const char* limited_only = "consumer.limited_only";
inline constexpr const char* partition_changed = "consumer.partition_changed";
inline constexpr const char* index_moved = "consumer.index_moved";
inline constexpr const char* gid_gone = "consumer.gid_gone";

}  // namespace rdmadiag::consumer_rule

namespace rdmadiag {

// A CM ID or an SRP host that sends from a GID the port's cache view no longer holds. False when
// the cache view is missing or incomplete: an absence there proves nothing.
bool sends_from_gid_gone(const Consumer& consumer, const GidViewState* cache);

// Whether `finding`, on the consumer's port, names it: a key finding (absent, limited only,
// moved) hits the consumers of that key, a partition change the IPoIB parents, which use index
// 0, and a GID finding the consumers that send from a GID that left.
bool finding_hits(const Finding& finding, const Consumer& consumer, const PortSnapshot& port);

}  // namespace rdmadiag
