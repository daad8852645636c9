#pragma once
// What the Partitions tab shows, in one shape whatever it came from: every partition with its
// member counts per view, and the member ports of one partition. A daemon sends it as
// /api/v1/partitions (gui/client/partitions_json); a playback's engine has the whole
// PartitionModel, which listing_of() reads the same way the API writes it.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/partition_model.hpp"

namespace rdmadiag::gui::models {

// Members of one view: limited only, full only, both.
struct MemberCounts {
    uint32_t limited = 0;
    uint32_t full = 0;
    uint32_t both = 0;
    bool operator==(const MemberCounts&) const = default;
};

struct PartitionRow {
    uint16_t pkey = 0;  // 15-bit base
    std::string name;
    bool intended = false;
    std::array<MemberCounts, kMemberViews> counts{};  // by MemberView
    // Member ports that do not hold what the intent says; unset where the partition is not judged.
    std::optional<uint32_t> differences;
    bool operator==(const PartitionRow&) const = default;
};

struct PartitionMemberRow {
    PortRef port;
    std::string node;  // NodeDescription, where known
    std::optional<uint64_t> guid;
    std::array<uint8_t, kMemberViews> holds{};  // kHoldsLimited / kHoldsFull bits, by MemberView
    MemberView held_view = MemberView::device;  // the view compared with the intent
    MemberDifference difference = MemberDifference::none;
    uint8_t in(MemberView v) const { return holds[static_cast<size_t>(v)]; }
    bool operator==(const PartitionMemberRow&) const = default;
};

struct PartitionListing {
    uint64_t sequence = 0;  // of the snapshot it was read from (0: a playback's own model)
    TimePoint time;
    bool intent = false;
    std::optional<PartitionIntentInfo> intent_file;
    std::vector<std::string> unresolved;   // intent lines naming no port, in words
    std::vector<PartitionRow> partitions;  // by P_Key
    // Set when the listing holds one partition's members: then `partitions` holds that partition
    // alone (nothing when there is no such partition).
    std::optional<uint16_t> members_of;
    std::vector<PartitionMemberRow> members;
    bool operator==(const PartitionListing&) const = default;
};

// The engine's model as a listing: every partition, and with `members_of` (a base P_Key) only
// that one with its member ports.
PartitionListing listing_of(const PartitionModel& model,
                            std::optional<uint16_t> members_of = std::nullopt);

}  // namespace rdmadiag::gui::models
