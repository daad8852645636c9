#pragma once
// One part of a subnet, so that several collectors can sweep it between them (`mad.shard=K/N`):
// every collector discovers the whole subnet and reads the nodes whose NodeGUID hashes to its
// part. The split needs no coordination (each collector computes it alone), does not move when
// LIDs change or nodes come and go (a node's part depends on its GUID only), and a node's ports
// all stay together, so every port is read by exactly one collector. The hash mixes the GUID's
// bits first: vendors number GUIDs in sequence, and a plain modulo would follow their stride.

#include <cstdint>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag::mad {

struct SweepShard {
    unsigned index = 0;  // 0-based
    unsigned count = 1;

    bool owns(uint64_t node_guid) const;
    std::string to_string() const;  // "2/3", 1-based as written
    bool operator==(const SweepShard&) const = default;
};

// "K/N" with 1 <= K <= N <= 1024.
Result<SweepShard> parse_sweep_shard(std::string_view text);

}  // namespace rdmadiag::mad
