#pragma once
// The consumer.* findings: who a P_Key or GID change hits (docs/findings.md). Pure: the consumers
// as the sources listed them, the ports as a snapshot holds them, and what the carriers did.
//
// - consumer.pkey_absent: a consumer's P_Key is not in its port's table.
// - consumer.limited_only: an IPoIB interface whose port holds its key only as a limited member.
// - consumer.partition_changed: the key at index 0 changed under a parent IPoIB interface.
// - consumer.index_moved: a key moved (or an index was reused) on a port with UD consumers of it;
//   the kernel restarts its IPoIB interfaces then, which bounces their carrier.
// - consumer.gid_gone: a consumer's source GID left its port's GID table.

#include <vector>

#include "collector/engine/consumers/carrier_history.hpp"
#include "collector/engine/consumers/consumer_settings.hpp"
#include "collector/model/consumer.hpp"
#include "collector/model/consumer_hits.hpp"
#include "collector/model/finding.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::engine::consumers {

inline constexpr const char* kRulePkeyAbsent = consumer_rule::pkey_absent;
inline constexpr const char* kRuleLimitedOnly = consumer_rule::limited_only;
inline constexpr const char* kRulePartitionChanged = consumer_rule::partition_changed;
inline constexpr const char* kRuleIndexMoved = consumer_rule::index_moved;
inline constexpr const char* kRuleGidGone = consumer_rule::gid_gone;
inline constexpr const char* kConsumerRules[] = {
    kRulePkeyAbsent, kRuleLimitedOnly, kRulePartitionChanged, kRuleIndexMoved, kRuleGidGone};

// Fills each IPoIB interface's P_Key index from its port's table (device view, else sma), as
// inferred: the index the kernel finds for it, except that a child whose key moved and that has
// not restarted since still holds the index it looked up before.
void infer_indexes(std::vector<ConsumerInventory>& inventories, const Snapshot& snapshot,
                   const CarrierHistory& carriers, const ConsumerRuleSettings& settings);

// The findings that hold now; `since` of each is `now` (the book keeps an active one's).
std::vector<Finding> judge_consumers(const std::vector<ConsumerInventory>& inventories,
                                     const Snapshot& snapshot, const CarrierHistory& carriers,
                                     TimePoint now, const ConsumerRuleSettings& settings);

}  // namespace rdmadiag::engine::consumers
