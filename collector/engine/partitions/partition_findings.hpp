#pragma once
// The partition.* rules: the ports' P_Key tables against the SM's intent (partitions.conf), judged
// on a partition model whenever it is built (partition_watch.hpp). Each finding is about one
// partition (subject: its P_Key), names up to PartitionSettings::example_ports member ports and
// counts the rest, so an intent that is wrong for thousands of ports makes a handful of findings.
// Without an intent there is nothing to judge, and every partition.* finding clears.

#include <string_view>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/partitions/partition_settings.hpp"
#include "collector/model/partition_model.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::partitions {

// Intended, not held: the port's held view (sma, or device where no sweep read the port) lacks the
// key the intent gives it.
inline constexpr std::string_view kRuleMemberMissing = "partition.member_missing";
// Held, not intended: the port holds a key the intent does not give it, in a partition the intent
// defines, or in one it does not define at all.
inline constexpr std::string_view kRuleUnexpectedMember = "partition.unexpected_member";
// Held with the other membership: full where the intent says limited, or the reverse.
inline constexpr std::string_view kRuleMembershipMismatch = "partition.membership_mismatch";
// A switch's external port faces a port the intent makes a limited member, and its PortInfo does
// not enforce partitions inbound, outbound or both (where a subnet sweep read the bits and the
// link's ends).
inline constexpr std::string_view kRuleEnforcementOff = "partition.enforcement_off";

// Raises the findings `model` (built from `snapshot`) shows against its intent and clears those it
// no longer shows.
void judge_partitions(const Snapshot& snapshot, const PartitionModel& model,
                      const PartitionSettings& settings, engine::EngineContext& ctx);

}  // namespace rdmadiag::partitions
