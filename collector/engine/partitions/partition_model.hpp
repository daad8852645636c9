#pragma once
// Builds the partition model (collector/model/partition_model.hpp) of a snapshot: its P_Key views
// folded into partitions, and the SM's intent (partitions.conf, partitions_conf.hpp) resolved
// against the ports the snapshot knows.
//
// Built in one pass over the snapshot's P_Key views: each held key becomes a (P_Key, port, view,
// membership) fact, the facts are sorted and folded, so the cost is the number of keys held, not
// partitions times ports.

#include <cstdint>
#include <optional>

#include "collector/model/partition_model.hpp"
#include "collector/model/partitions_conf.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::partitions {

struct ModelOptions {
    // The SM's own port (SELF); opensm also makes it a full member of the default partition.
    std::optional<uint64_t> sm_port_guid;
};

// `intent` may be null: the model then has the views only. With an intent, the model's `intent`
// holds its issues and whether it leaves keys to the SM; where it was read from is the caller's.
PartitionModel build_partition_model(const Snapshot& snapshot, const PartitionsConf* intent,
                                     const ModelOptions& options = {});

}  // namespace rdmadiag::partitions
