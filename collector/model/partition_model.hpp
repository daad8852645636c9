#pragma once
// Partitions as an administrator thinks of them: for each P_Key (its 15-bit base), the end ports
// that are members and how (full, limited), in every view the engine has of their P_Key tables,
// and in the SM's intent (opensm's partitions.conf) resolved against the ports a snapshot knows.
// The engine builds it (collector/engine/partitions/) and the snapshot carries it to the sinks.
//
// Only InfiniBand end ports are members: CA and router ports, and a switch's port 0. A switch's
// external ports hold P_Keys only to enforce partitions on their links, which is not membership;
// RoCE and iWARP ports are in no subnet manager's partitions.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/pkey.hpp"
#include "collector/model/port_ref.hpp"

namespace rdmadiag {

enum class NodeKind : uint8_t { ca, switch_node, router, other };
NodeKind node_kind(const std::optional<std::string>& node_type);

// The views a membership is read in: the SM's intent, then the P_Key views (pkey.hpp).
enum class MemberView : uint8_t { intent, sm, sma, device, cache };
constexpr size_t kMemberViews = 5;
constexpr MemberView kAllMemberViews[kMemberViews] = {
    MemberView::intent, MemberView::sm, MemberView::sma, MemberView::device, MemberView::cache};
std::string_view to_string(MemberView v);
MemberView member_view(PKeyView v);

// What a port holds of one base P_Key in one view: bit 0 limited, bit 1 full (a port may hold
// both where the SM allows it).
constexpr uint8_t kHoldsLimited = 1;
constexpr uint8_t kHoldsFull = 2;
constexpr uint8_t kHoldsBoth = kHoldsLimited | kHoldsFull;
std::string_view holding_name(uint8_t holds);  // "limited", "full", "both"; "" for none

struct EndPort {
    PortRef port;
    std::optional<uint64_t> guid;  // the port GUID, where a source gave it
    NodeKind kind = NodeKind::other;
    std::string node_name;   // NodeDescription where known
    uint8_t views_read = 0;  // bit (1 << MemberView) per P_Key view read for the port
    bool has(MemberView v) const { return (views_read >> static_cast<unsigned>(v)) & 1u; }
    bool operator==(const EndPort&) const = default;
};

struct PartitionMember {
    uint32_t port = 0;  // index into PartitionModel::ports
    std::array<uint8_t, kMemberViews> holds{};
    uint8_t in(MemberView v) const { return holds[static_cast<size_t>(v)]; }
    bool operator==(const PartitionMember&) const = default;
};

struct Partition {
    uint16_t pkey = 0;      // 15-bit base
    std::string name;       // from the intent; empty when the intent does not name it
    bool intended = false;  // partitions.conf defines it
    std::vector<PartitionMember> members;  // by port index
    // Members per view: [view][0] limited only, [1] full only, [2] both.
    std::array<std::array<uint32_t, 3>, kMemberViews> counts{};
    bool operator==(const Partition&) const = default;
};

// A line of the intent that could not be used as written.
struct PartitionIntentIssue {
    uint32_t line = 0;
    bool skipped = false;  // the statement or port was left out; otherwise a warning
    std::string message;
    bool operator==(const PartitionIntentIssue&) const = default;
};

// Where the intent came from and what in it could not be used.
struct PartitionIntentInfo {
    std::string path;
    std::optional<uint64_t> sm_port_guid;      // whom SELF names
    TimePoint read;                            // when the text was read
    std::vector<PartitionIntentIssue> issues;  // by line
    // Some partitions' P_Keys are left to the SM to generate: a key the file does not name may be
    // one of them, so partitions outside the file are not judged.
    bool generated_keys = false;
    bool operator==(const PartitionIntentInfo&) const = default;
};

struct PartitionModel {
    std::vector<EndPort> ports;
    std::vector<Partition> partitions;  // by P_Key
    // Intent that names nothing the snapshot has, in words ("line 4: no port has GUID 0x...").
    std::vector<std::string> unresolved;
    std::optional<PartitionIntentInfo> intent;  // none: no intent was given
    const Partition* find(uint16_t pkey) const;
    // Whether the partition's members are compared with the intent: with an intent, a partition
    // it defines, and one it does not define unless the SM may have generated its key.
    bool judged(const Partition& partition) const;
    bool operator==(const PartitionModel&) const = default;
};

// How a member port holds the key against the intent. A port's holding is read in its sma view
// (what the port answers) where a subnet sweep read it, in its device view otherwise.
enum class MemberDifference : uint8_t { none, missing, unexpected, mismatch };
std::string_view to_string(MemberDifference d);
MemberView held_view(const EndPort& port);
// Nothing differs in a partition that is not judged, or where the port's held view was not read.
MemberDifference difference(const PartitionModel& model, const Partition& partition,
                            const PartitionMember& member);
size_t differences(const PartitionModel& model, const Partition& partition);

}  // namespace rdmadiag
