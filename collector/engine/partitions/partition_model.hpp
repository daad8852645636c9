#pragma once
// Partitions as an administrator thinks of them: for each P_Key (its 15-bit base), the end ports
// that are members and how (full, limited), in every view the engine has of their P_Key tables,
// and in the SM's intent (partitions.conf, partitions_conf.hpp) resolved against the ports the
// snapshot knows.
//
// Only InfiniBand end ports are members: CA and router ports, and a switch's port 0. A switch's
// external ports hold P_Keys only to enforce partitions on their links, which is not membership;
// RoCE and iWARP ports are in no subnet manager's partitions.
//
// Built in one pass over the snapshot's P_Key views: each held key becomes a (P_Key, port, view,
// membership) fact, the facts are sorted and folded, so the cost is the number of keys held, not
// partitions times ports.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/engine/partitions/partitions_conf.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::partitions {

enum class NodeKind : uint8_t { ca, switch_node, router, other };
NodeKind node_kind(const std::optional<std::string>& node_type);

// The views a membership is read in: the SM's intent, then the P_Key views (pkey.hpp).
enum class MemberView : uint8_t { intent, sm, sma, device, cache };
constexpr size_t kMemberViews = 5;
std::string_view to_string(MemberView v);
MemberView member_view(PKeyView v);

// What a port holds of one base P_Key in one view: bit 0 limited, bit 1 full (a port may hold
// both where the SM allows it).
constexpr uint8_t kHoldsLimited = 1;
constexpr uint8_t kHoldsFull = 2;

struct EndPort {
    PortRef port;
    std::optional<uint64_t> guid;  // the port GUID, where a source gave it
    NodeKind kind = NodeKind::other;
    std::string node_name;   // NodeDescription where known
    uint8_t views_read = 0;  // bit (1 << MemberView) per P_Key view read for the port
    bool has(MemberView v) const { return (views_read >> static_cast<unsigned>(v)) & 1u; }
};

struct PartitionMember {
    uint32_t port = 0;  // index into PartitionModel::ports
    std::array<uint8_t, kMemberViews> holds{};
    uint8_t in(MemberView v) const { return holds[static_cast<size_t>(v)]; }
};

struct Partition {
    uint16_t pkey = 0;      // 15-bit base
    std::string name;       // from the intent; empty when the intent does not name it
    bool intended = false;  // partitions.conf defines it
    std::vector<PartitionMember> members;  // by port index
    // Members per view: [view][0] limited only, [1] full only, [2] both.
    std::array<std::array<uint32_t, 3>, kMemberViews> counts{};
};

struct PartitionModel {
    std::vector<EndPort> ports;
    std::vector<Partition> partitions;  // by P_Key
    // Intent that names nothing the snapshot has, in words ("line 4: no port has GUID 0x...").
    std::vector<std::string> unresolved;
    const Partition* find(uint16_t pkey) const;
};

struct ModelOptions {
    // The SM's own port (SELF); opensm also makes it a full member of the default partition.
    std::optional<uint64_t> sm_port_guid;
};

// `intent` may be null: the model then has the views only.
PartitionModel build_partition_model(const Snapshot& snapshot, const PartitionsConf* intent,
                                     const ModelOptions& options = {});

}  // namespace rdmadiag::partitions
