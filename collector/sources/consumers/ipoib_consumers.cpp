#include "collector/sources/consumers/ipoib_consumers.hpp"

#include <algorithm>

namespace rdmadiag::consumers {

std::string operstate_name(uint8_t operstate) {
    // IF_OPER_* of <linux/if.h>.
    static constexpr const char* names[] = {"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN",
                                            "TESTING", "DORMANT",    "UP"};
    return operstate < std::size(names) ? names[operstate] : "UNKNOWN";
}

IpoibListing ipoib_consumers(const std::vector<netdev::Link>& links,
                             const std::map<uint64_t, PortRef>& ports_by_guid) {
    std::map<int32_t, const netdev::Link*> by_index;
    for (const auto& l : links) by_index[l.index] = &l;
    IpoibListing out;
    for (const auto& l : links) {
        if (!l.ipoib) continue;
        Consumer c;
        c.kind = ConsumerKind::ipoib;
        c.name = l.name;
        c.pkey = l.ipoib->pkey;
        c.qp_type = "UD";
        c.mode = l.ipoib->mode == 1 ? "connected" : "datagram";
        c.carrier = l.carrier;
        c.carrier_changes = l.carrier_changes;
        if (l.operstate) c.state = operstate_name(*l.operstate);
        if (l.link) {
            auto parent = by_index.find(*l.link);
            if (parent != by_index.end()) c.parent = parent->second->name;
        }
        if (!l.ib_address) {
            out.unplaced.push_back(l.name + ": no InfiniBand hardware address");
            continue;
        }
        Gid gid;
        std::copy(l.ib_address->begin() + 4, l.ib_address->end(), gid.raw.begin());
        c.gid = gid;
        auto port = ports_by_guid.find(gid.interface_id());
        if (port == ports_by_guid.end()) {
            out.unplaced.push_back(l.name + ": sends from GUID " + format_guid(gid.interface_id()) +
                                   ", which no port has");
            continue;
        }
        c.device = port->second.device;
        c.port = port->second.port;
        out.consumers.push_back(std::move(c));
    }
    return out;
}

}  // namespace rdmadiag::consumers
