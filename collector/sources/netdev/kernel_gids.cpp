#include "collector/sources/netdev/kernel_gids.hpp"

#include <linux/if_arp.h>
#include <sys/socket.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

// What the kernel does, as read in drivers/infiniband/core/roce_gid_mgmt.c, cache.c and
// net/ipv6/addrconf.c:
//
// - Only Ethernet netdevs count: netdevice_event() and addr_event() return at once for a netdev
//   whose type is not ARPHRD_ETHER.
// - Which netdevs' addresses a port takes (is_eth_port_of_netdev_filter()): the port's netdev
//   itself and any VLAN whose real device (rdma_vlan_dev_real_dev(), through stacked VLANs) it
//   is; and any upper device of it, at any depth (rdma_is_upper_dev_rcu(): VLANs, macvlans, a
//   bond, a VLAN on that bond), unless the upper's real device is a bond whose active slave is
//   another netdev (is_eth_active_slave_of_bonding_rcu() INACTIVE). A bond without an active
//   slave (802.3ad, balance-rr, or none up) lets every slave take its addresses.
// - The default GID (is_ndev_for_default_gid_filter(), add_default_gids()): made from the port's
//   own netdev, unless that netdev is a bond slave; then from the bond master above it, for every
//   slave, active or not. Its value (cache.c make_default_gid()) is fe80::/64 followed by the
//   EUI-64 of the netdev's MAC (addrconf_ifid_eui48(): U/L bit flipped, ff:fe in the middle).
// - IPv4 (enum_netdev_ipv4_ips(), inetaddr_event()): every address on the list, as ifa_address
//   (rtnetlink's IFA_ADDRESS, the peer on a point-to-point link), mapped to ::ffff:a.b.c.d by
//   rdma_ip2gid().
// - IPv6 (enum_netdev_ipv6_ips(), inet6addr_event()): every address on the netdev's list, as
//   itself, flags not looked at. ipv6_add_addr() announces an address (NETDEV_UP) when it joins
//   the list, before duplicate address detection, so a tentative address has its GID at once.
//   When DAD fails, addrconf_dad_stop() keeps a permanent (configured) address on the list, with
//   IFA_F_DADFAILED, and announces nothing: its GID stays; any other address is deleted
//   (ipv6_del_addr(), NETDEV_DOWN) and its GID with it. Link-local addresses are no different;
//   one equal to the default GID is not added twice (find_gid() matches GID, type and netdev).
// - A netdev that goes down: netdevice_event() has no NETDEV_DOWN case, so the default and IPv4
//   GIDs stay (IPv4 addresses stay on a down link). IPv6 addresses are deleted on down unless
//   keep_addr_on_down, with a NETDEV_DOWN each, so their GIDs follow the address list there too.
// - A zero GID is never added (__ib_cache_gid_add()).
//
// So the address lists rtnetlink shows are the answer, with no filter on flags or link state.
// What this cannot see: netdevs in other network namespaces (the kernel walks every namespace)
// and a netdev's dev_id, which addrconf_ifid_eui48() puts in the default GID when it is set.

namespace rdmadiag::netdev {

namespace {

constexpr const char* kUpperKinds[] = {"vlan", "macvlan", "macvtap", "ipvlan", "ipvtap"};

class Links {
public:
    explicit Links(const std::vector<Link>& links) {
        for (const auto& l : links) by_index_.emplace(l.index, &l);
        for (const auto& l : links) {
            // A master (bond, team, bridge, VRF) is an upper device of its ports; VLANs and
            // macvlans link themselves above their lower device the same way.
            if (l.master && *l.master != l.index) uppers_[l.index].push_back(*l.master);
            if (l.link && links_as_upper(l)) uppers_[*l.link].push_back(l.index);
        }
    }

    const Link* find(int32_t index) const {
        auto it = by_index_.find(index);
        return it == by_index_.end() ? nullptr : it->second;
    }

    // Whether `upper` is above `dev`, at any depth (never `dev` itself).
    bool is_upper(int32_t dev, int32_t upper) const {
        std::set<int32_t> seen{dev};
        std::vector<int32_t> todo{dev};
        while (!todo.empty()) {
            const int32_t d = todo.back();
            todo.pop_back();
            auto it = uppers_.find(d);
            if (it == uppers_.end()) continue;
            for (int32_t u : it->second) {
                if (u == upper) return true;
                if (seen.insert(u).second) todo.push_back(u);
            }
        }
        return false;
    }

    // The device under a stack of VLANs; `l` itself when it is no VLAN.
    const Link* real_device(const Link& l) const {
        const Link* d = &l;
        for (int depth = 0; depth < 16 && d->kind == "vlan" && d->link; ++depth) {
            const Link* lower = find(*d->link);
            if (lower == nullptr) break;
            d = lower;
        }
        return d;
    }

    bool is_bond_slave(const Link& l) const {
        const Link* m = l.master ? find(*l.master) : nullptr;
        return m != nullptr && m->kind == "bond";
    }

private:
    static bool links_as_upper(const Link& l) {
        return std::any_of(std::begin(kUpperKinds), std::end(kUpperKinds),
                           [&](const char* k) { return l.kind == k; });
    }

    std::map<int32_t, const Link*> by_index_;
    std::map<int32_t, std::vector<int32_t>> uppers_;
};

enum class SlaveState { active, inactive, none };

SlaveState slave_state(const Link& port, const Link& real) {
    if (real.kind != "bond" || !real.bond_active_slave) return SlaveState::none;
    return *real.bond_active_slave == port.index ? SlaveState::active : SlaveState::inactive;
}

bool takes_addresses(const Links& links, const Link& port, const Link& dev) {
    const Link& real = *links.real_device(dev);
    if (real.index == port.index) return true;
    return links.is_upper(port.index, dev.index) && slave_state(port, real) != SlaveState::inactive;
}

bool gives_default_gid(const Links& links, const Link& port, const Link& dev) {
    if (dev.index == port.index) return !links.is_bond_slave(port);
    return dev.kind == "bond" && links.is_upper(port.index, dev.index);
}

Gid gid_of(const Address& a) {
    Gid g;
    if (a.family == AF_INET) {
        // ifa_address: 0.0.0.0 when rtnetlink leaves IFA_ADDRESS out.
        const auto& bytes = a.address ? *a.address : std::array<uint8_t, 16>{};
        const uint32_t host = (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) |
                              (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]};
        return gid_from_ipv4(host);
    }
    // With a peer, IFA_LOCAL is the address and IFA_ADDRESS the peer.
    g.raw = a.local ? *a.local : *a.address;
    return g;
}

}  // namespace

GidTable kernel_roce_gids(int32_t port_netdev, const std::vector<Link>& links,
                          const std::vector<Address>& addresses) {
    GidTable table;
    const Links graph(links);
    const Link* port = graph.find(port_netdev);
    if (port == nullptr || port->type != ARPHRD_ETHER) return table;

    std::set<std::pair<Gid, std::string>> seen;
    auto add = [&](const Gid& gid, const std::string& ndev) {
        if (gid.is_zero() || !seen.emplace(gid, ndev).second) return;
        GidEntry e;
        e.index = static_cast<uint16_t>(table.entries.size());
        e.gid = gid;
        e.type = GidType::unknown;
        e.ndev = ndev;
        table.entries.push_back(std::move(e));
    };

    // The port's own netdev first, then the others in ifindex order.
    std::vector<const Link*> order;
    for (const auto& l : links) order.push_back(&l);
    std::stable_sort(order.begin(), order.end(), [&](const Link* a, const Link* b) {
        if ((a->index == port_netdev) != (b->index == port_netdev)) return a->index == port_netdev;
        return a->index < b->index;
    });
    for (const Link* dev : order) {
        if (dev->type != ARPHRD_ETHER) continue;
        if (gives_default_gid(graph, *port, *dev) && dev->mac)
            add(gid_from_mac(*dev->mac), dev->name);
        if (!takes_addresses(graph, *port, *dev)) continue;
        for (uint8_t family : {uint8_t{AF_INET}, uint8_t{AF_INET6}}) {
            for (const auto& a : addresses) {
                if (a.index == dev->index && a.family == family) add(gid_of(a), dev->name);
            }
        }
    }
    return table;
}

}  // namespace rdmadiag::netdev
