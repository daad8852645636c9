#include "collector/sources/consumers/resource_consumers.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace rdmadiag::consumers {

ConsumerOwner owner_of(const netlink::NlResOwner& owner, const CommOf& comm) {
    ConsumerOwner out;
    if (owner.pid) {
        out.pid = owner.pid;
        auto name = comm ? comm(*owner.pid) : std::nullopt;
        out.name = name ? *name : "";
    } else {
        out.name = owner.kernel_name;
    }
    return out;
}

std::vector<Consumer> qp_consumers(const std::string& device, const std::vector<netlink::NlQp>& qps,
                                   const CommOf& comm, size_t top_owners) {
    std::map<uint32_t, ConsumerOwner> owners_by_pid;
    auto owner = [&](const netlink::NlQp& q) {
        if (!q.owner.pid) return owner_of(q.owner, comm);
        auto it = owners_by_pid.find(*q.owner.pid);
        if (it == owners_by_pid.end())
            it = owners_by_pid.emplace(*q.owner.pid, owner_of(q.owner, comm)).first;
        return it->second;
    };
    // The owners with most QPs keep their names; ties go to the lower pid, then the name.
    std::map<ConsumerOwner, uint32_t> per_owner;
    std::vector<ConsumerOwner> owner_of_qp;
    owner_of_qp.reserve(qps.size());
    for (const auto& q : qps) {
        owner_of_qp.push_back(owner(q));
        ++per_owner[owner_of_qp.back()];
    }
    std::vector<std::pair<ConsumerOwner, uint32_t>> ranked(per_owner.begin(), per_owner.end());
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::map<ConsumerOwner, bool> named;
    for (size_t i = 0; i < ranked.size(); ++i) named[ranked[i].first] = i < top_owners;

    using Key = std::tuple<uint32_t, std::string, ConsumerOwner>;
    std::map<Key, uint32_t> groups;
    for (size_t i = 0; i < qps.size(); ++i) {
        ConsumerOwner o = owner_of_qp[i];
        if (!named[o]) o = ConsumerOwner{std::nullopt, std::string(kOtherOwners)};
        ++groups[Key{qps[i].port.value_or(0), std::string(netlink::qp_type_name(qps[i].type)), o}];
    }
    std::vector<Consumer> out;
    out.reserve(groups.size());
    for (const auto& [key, count] : groups) {
        Consumer c;
        c.kind = ConsumerKind::qp;
        c.device = device;
        c.port = std::get<0>(key);
        c.qp_type = std::get<1>(key);
        c.name = c.qp_type;
        c.owner = std::get<2>(key);
        c.count = count;
        out.push_back(std::move(c));
    }
    return out;
}

namespace {

// The QP type an ID's port space implies when the kernel names none (a listener has no QP).
std::string qp_type_of(const netlink::NlCmId& id) {
    if (id.qp_type) return std::string(netlink::qp_type_name(*id.qp_type));
    const auto space = netlink::port_space_name(id.port_space);
    if (space == "UDP" || space == "IPOIB") return "UD";
    if (space == "TCP") return "RC";
    return "";
}

}  // namespace

std::vector<Consumer> cm_id_consumers(const std::string& device, std::string_view protocol,
                                      const std::vector<netlink::NlCmId>& ids, const CommOf& comm,
                                      const IpoibAddressOf& ipoib_address) {
    std::vector<Consumer> out;
    out.reserve(ids.size());
    for (const auto& id : ids) {
        Consumer c;
        c.kind = ConsumerKind::cm_id;
        c.name = "cm_id " + std::to_string(id.id);
        c.device = device;
        c.port = id.port.value_or(0);
        c.owner = owner_of(id.owner, comm);
        c.state = std::string(netlink::cm_state_name(id.state));
        c.qp_type = qp_type_of(id);
        if (id.source) {
            const auto& src = *id.source;
            c.address = netlink::to_string(src);
            if (src.family == AF_IB) {
                c.pkey = src.pkey;
                c.gid = Gid{src.address};
            } else if (!netlink::is_unspecified(src) &&
                       (src.family == AF_INET || src.family == AF_INET6)) {
                auto on_ipoib = ipoib_address ? ipoib_address(src.address) : std::nullopt;
                if (on_ipoib) {
                    c.pkey = on_ipoib->pkey;
                    c.gid = on_ipoib->gid;
                    c.parent = on_ipoib->interface;
                } else if (protocol == "roce") {
                    c.gid = Gid{src.address};
                }
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace rdmadiag::consumers
