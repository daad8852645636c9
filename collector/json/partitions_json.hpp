#pragma once
// The partition model as JSON: `rdmadiag partitions --json` and /api/v1/partitions write the same
// document (docs/json.md).

#include <cstdint>
#include <optional>

#include "collector/json/checked_json.hpp"
#include "collector/model/partition_model.hpp"

namespace rdmadiag::codec {

// Every partition's member counts per view; with `pkey` (a raw or base P_Key) only that
// partition, with each member port.
Json partitions_to_json(const PartitionModel& model, std::optional<uint16_t> pkey = std::nullopt);

}  // namespace rdmadiag::codec
