#pragma once
// Reading the daemon's /api/v1/partitions answer (docs/json.md): every partition's member counts
// per view, or with ?pkey= one partition and its member ports.

#include <cstdint>
#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "gui/models/partition_listing.hpp"

namespace rdmadiag::gui::client {

// `members_of`: the P_Key the request named (?pkey=), whose members the answer must carry.
// What is not JSON, or not this answer's shape, is an error. A member port that cannot be read
// is left out and counted in `skipped_members`; a view this client does not know is ignored.
struct PartitionsAnswer {
    models::PartitionListing listing;
    size_t skipped_members = 0;
    std::string first_skip_reason;
};
Result<PartitionsAnswer> parse_partitions_answer(std::string_view text,
                                                 std::optional<uint16_t> members_of = std::nullopt);

}  // namespace rdmadiag::gui::client
