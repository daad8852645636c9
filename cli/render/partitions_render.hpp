#pragma once
// `rdmadiag partitions`: P_Keys as partitions, the members of each in every view, and where the
// ports' tables and the SM's intent disagree.

#include <optional>
#include <string>

#include "collector/engine/partitions/partition_model.hpp"
#include "collector/json/checked_json.hpp"

namespace rdmadiag::cli::render {

struct PartitionsRenderOptions {
    std::optional<uint16_t> pkey;  // one partition's members; every partition's summary otherwise
};

// How a member port holds the key against the intent: the view a port's holding is judged in is
// sma (what the port answers) where a subnet sweep read it, the device view otherwise.
enum class MemberDifference : uint8_t { none, missing, unexpected, mismatch };
std::string_view to_string(MemberDifference d);
partitions::MemberView held_view(const partitions::EndPort& port);
// Nothing differs without an intent for the partition (no file, or the file does not define it),
// or where the port's table was not read in its held view.
MemberDifference difference(const partitions::PartitionModel& model,
                            const partitions::Partition& partition,
                            const partitions::PartitionMember& member, bool have_intent);

std::string render_partitions_text(const partitions::PartitionModel& model, bool have_intent,
                                   const PartitionsRenderOptions& options);
codec::Json render_partitions_json(const partitions::PartitionModel& model, bool have_intent,
                                   const PartitionsRenderOptions& options);

}  // namespace rdmadiag::cli::render
