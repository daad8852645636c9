#pragma once
// `rdmadiag partitions`: P_Keys as partitions, the members of each in every view, and where the
// ports' tables and the SM's intent disagree.

#include <optional>
#include <string>

#include "collector/model/partition_model.hpp"

namespace rdmadiag::cli::render {

struct PartitionsRenderOptions {
    std::optional<uint16_t> pkey;  // one partition's members; every partition's summary otherwise
};

std::string render_partitions_text(const PartitionModel& model,
                                   const PartitionsRenderOptions& options);

}  // namespace rdmadiag::cli::render
