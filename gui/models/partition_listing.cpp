#include "gui/models/partition_listing.hpp"

namespace rdmadiag::gui::models {

namespace {

PartitionRow row_of(const PartitionModel& model, const Partition& p) {
    PartitionRow row;
    row.pkey = p.pkey;
    row.name = p.name;
    row.intended = p.intended;
    for (size_t v = 0; v < kMemberViews; ++v) {
        row.counts[v] = MemberCounts{p.counts[v][0], p.counts[v][1], p.counts[v][2]};
    }
    if (model.judged(p)) row.differences = static_cast<uint32_t>(differences(model, p));
    return row;
}

PartitionMemberRow member_of(const PartitionModel& model, const Partition& p,
                             const PartitionMember& m) {
    const EndPort& port = model.ports[m.port];
    PartitionMemberRow row;
    row.port = port.port;
    row.node = port.node_name;
    row.guid = port.guid;
    row.holds = m.holds;
    row.held_view = held_view(port);
    row.difference = difference(model, p, m);
    return row;
}

}  // namespace

PartitionListing listing_of(const PartitionModel& model, std::optional<uint16_t> members_of) {
    PartitionListing out;
    out.intent = model.intent.has_value();
    out.intent_file = model.intent;
    out.unresolved = model.unresolved;
    if (members_of) {
        out.members_of = pkey_base(*members_of);
        if (const Partition* p = model.find(*out.members_of)) {
            out.partitions.push_back(row_of(model, *p));
            out.members.reserve(p->members.size());
            for (const auto& m : p->members) out.members.push_back(member_of(model, *p, m));
        }
        return out;
    }
    out.partitions.reserve(model.partitions.size());
    for (const auto& p : model.partitions) out.partitions.push_back(row_of(model, p));
    return out;
}

}  // namespace rdmadiag::gui::models
