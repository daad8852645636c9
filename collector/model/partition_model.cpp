#include "collector/model/partition_model.hpp"

#include <algorithm>

namespace rdmadiag {

NodeKind node_kind(const std::optional<std::string>& node_type) {
    if (!node_type) return NodeKind::other;
    if (*node_type == "CA") return NodeKind::ca;
    if (*node_type == "switch") return NodeKind::switch_node;
    if (*node_type == "router") return NodeKind::router;
    return NodeKind::other;
}

std::string_view to_string(MemberView v) {
    switch (v) {
        case MemberView::intent:
            return "intent";
        case MemberView::sm:
            return "sm";
        case MemberView::sma:
            return "sma";
        case MemberView::device:
            return "device";
        case MemberView::cache:
            return "cache";
    }
    return "intent";
}

MemberView member_view(PKeyView v) {
    switch (v) {
        case PKeyView::device:
            return MemberView::device;
        case PKeyView::sma:
            return MemberView::sma;
        case PKeyView::sm:
            return MemberView::sm;
        case PKeyView::cache:
            return MemberView::cache;
    }
    return MemberView::device;
}

std::string_view holding_name(uint8_t holds) {
    if (holds == kHoldsBoth) return "both";
    if (holds == kHoldsFull) return "full";
    if (holds == kHoldsLimited) return "limited";
    return "";
}

const Partition* PartitionModel::find(uint16_t pkey) const {
    auto it = std::lower_bound(partitions.begin(), partitions.end(), pkey,
                               [](const Partition& p, uint16_t k) { return p.pkey < k; });
    return it != partitions.end() && it->pkey == pkey ? &*it : nullptr;
}

bool PartitionModel::judged(const Partition& partition) const {
    return intent && (partition.intended || !intent->generated_keys);
}

std::string_view to_string(MemberDifference d) {
    switch (d) {
        case MemberDifference::missing:
            return "missing";
        case MemberDifference::unexpected:
            return "unexpected";
        case MemberDifference::mismatch:
            return "mismatch";
        case MemberDifference::none:
            break;
    }
    return "none";
}

MemberView held_view(const EndPort& port) {
    return port.has(MemberView::sma) ? MemberView::sma : MemberView::device;
}

MemberDifference difference(const PartitionModel& model, const Partition& partition,
                            const PartitionMember& member) {
    if (!model.judged(partition)) return MemberDifference::none;
    const EndPort& port = model.ports[member.port];
    const MemberView view = held_view(port);
    if (!port.has(view)) return MemberDifference::none;
    const uint8_t intended = member.in(MemberView::intent);
    const uint8_t held = member.in(view);
    if (intended == held) return MemberDifference::none;
    if (held == 0) return MemberDifference::missing;
    if (intended == 0) return MemberDifference::unexpected;
    return MemberDifference::mismatch;
}

size_t differences(const PartitionModel& model, const Partition& partition) {
    if (!model.judged(partition)) return 0;
    size_t n = 0;
    for (const auto& m : partition.members)
        n += difference(model, partition, m) != MemberDifference::none;
    return n;
}

}  // namespace rdmadiag
