#pragma once
// rtnetlink dump replies and RDMA netlink port dumps laid out as the kernel lays them out, built
// from the parsers' own structs (so that what is built parses back to the same), and a fake
// kernel answering the netdev source's requests from tables a test edits.

#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "collector/sources/netdev/netdev_source.hpp"
#include "collector/sources/netdev/rtnl_parser.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"
#include "tests/collector/sources/netlink/rdma_port_dump.hpp"
#include "tests/collector/sources/netlink/res_dump_bytes.hpp"

namespace rdmadiag::test {

inline void add_link(NlBuilder& b, const netdev::Link& l, uint16_t flags = NLM_F_MULTI) {
    ifinfomsg ifi{};
    ifi.ifi_family = AF_UNSPEC;
    ifi.ifi_type = l.type;
    ifi.ifi_index = l.index;
    ifi.ifi_flags = l.flags;
    b.begin_type(RTM_NEWLINK, flags).raw(&ifi, sizeof ifi);
    b.str(IFLA_IFNAME, l.name);
    if (l.mac) b.data(IFLA_ADDRESS, l.mac->data(), 6);
    if (l.ib_address) b.data(IFLA_ADDRESS, l.ib_address->data(), 20);
    if (l.link) b.u32(IFLA_LINK, static_cast<uint32_t>(*l.link));
    if (l.master) b.u32(IFLA_MASTER, static_cast<uint32_t>(*l.master));
    if (l.carrier) {
        const uint8_t v = *l.carrier ? 1 : 0;
        b.data(IFLA_CARRIER, &v, 1);
    }
    if (l.carrier_changes) b.u32(IFLA_CARRIER_CHANGES, *l.carrier_changes);
    if (l.operstate) b.data(IFLA_OPERSTATE, &*l.operstate, 1);
    if (!l.kind.empty()) {
        b.nest(IFLA_LINKINFO).str(IFLA_INFO_KIND, l.kind);
        if (l.bond_active_slave) {
            b.nest(IFLA_INFO_DATA)
                .u32(IFLA_BOND_ACTIVE_SLAVE, static_cast<uint32_t>(*l.bond_active_slave))
                .unnest();
        }
        if (l.ipoib) {
            const uint16_t mode = l.ipoib->mode, umcast = l.ipoib->umcast ? 1 : 0;
            b.nest(IFLA_INFO_DATA)
                .data(IFLA_IPOIB_PKEY, &l.ipoib->pkey, 2)
                .data(IFLA_IPOIB_MODE, &mode, 2)
                .data(IFLA_IPOIB_UMCAST, &umcast, 2)
                .unnest();
        }
        b.unnest();
    }
    b.end();
}

inline void add_address(NlBuilder& b, const netdev::Address& a, uint16_t flags = NLM_F_MULTI) {
    ifaddrmsg ifa{};
    ifa.ifa_family = a.family;
    ifa.ifa_prefixlen = a.prefix;
    ifa.ifa_flags = static_cast<uint8_t>(a.flags & 0xff);
    ifa.ifa_index = static_cast<uint32_t>(a.index);
    b.begin_type(RTM_NEWADDR, flags).raw(&ifa, sizeof ifa);
    const size_t n = a.family == AF_INET ? 4 : 16;
    if (a.address) b.data(IFA_ADDRESS, a.address->data(), n);
    if (a.local) b.data(IFA_LOCAL, a.local->data(), n);
    b.u32(IFA_FLAGS, a.flags);
    b.end();
}

inline std::vector<uint8_t> link_dump(const std::vector<netdev::Link>& links) {
    NlBuilder b;
    for (const auto& l : links) add_link(b, l);
    return b.done().bytes();
}

inline std::vector<uint8_t> address_dump(const std::vector<netdev::Address>& addresses) {
    NlBuilder b;
    for (const auto& a : addresses) add_address(b, a);
    return b.done().bytes();
}

// An IPoIB interface as ipoib_netlink.c describes it: up with its carrier, its 20-byte hardware
// address sending from GID fe80::GUID.
inline netdev::Link ipoib_link(int32_t index, const std::string& name, uint16_t pkey, uint64_t guid,
                               std::optional<int32_t> parent = std::nullopt) {
    netdev::Link l;
    l.index = index;
    l.name = name;
    l.type = ARPHRD_INFINIBAND;
    l.flags = IFF_UP;
    l.kind = "ipoib";
    l.ipoib = netdev::Link::Ipoib{pkey, 0, false};
    std::array<uint8_t, 20> hw{0x00, 0x00, 0x01, 0x07, 0xfe, 0x80};
    for (size_t i = 0; i < 8; ++i) hw[12 + i] = static_cast<uint8_t>(guid >> (56 - 8 * i));
    l.ib_address = hw;
    l.link = parent;
    l.carrier = true;
    l.operstate = 6;
    return l;
}

inline netdev::Link ether(int32_t index, const std::string& name, std::array<uint8_t, 6> mac,
                          uint32_t flags = 0x1 /* IFF_UP */) {
    netdev::Link l;
    l.index = index;
    l.name = name;
    l.type = ARPHRD_ETHER;
    l.flags = flags;
    l.mac = mac;
    return l;
}

inline netdev::Address ipv4(int32_t index, uint8_t a, uint8_t b, uint8_t c, uint8_t d,
                            uint8_t prefix = 24) {
    netdev::Address x;
    x.index = index;
    x.family = AF_INET;
    x.prefix = prefix;
    x.address = std::array<uint8_t, 16>{a, b, c, d};
    x.local = x.address;
    x.flags = IFA_F_PERMANENT;
    return x;
}

inline netdev::Address ipv6(int32_t index, const std::string& text,
                            uint32_t flags = IFA_F_PERMANENT, uint8_t prefix = 64) {
    netdev::Address x;
    x.index = index;
    x.family = AF_INET6;
    x.prefix = prefix;
    x.address = parse_gid(text).value().raw;
    x.flags = flags;
    return x;
}

// A kernel with RDMA devices (their ports, QPs and CM IDs), links and addresses, answering the
// netdev and consumers sources' requests.
struct FakeNetKernel {
    struct Device {
        uint32_t index = 0;
        std::string name;
        std::string protocol = "roce";
        std::vector<netlink::NlPort> ports;
        std::vector<netlink::NlQp> qps;
        std::vector<netlink::NlCmId> cm_ids;
        int resource_error = 0;  // the QP and CM ID dumps answer this errno when set
    };
    std::vector<Device> devices;
    std::vector<netdev::Link> links;
    std::vector<netdev::Address> addresses;
    unsigned link_dumps = 0;
    unsigned address_dumps = 0;
    unsigned port_dumps = 0;

    void add_port(const std::string& device, uint32_t index, uint32_t port, int32_t netdev) {
        Device* d = nullptr;
        for (auto& x : devices) {
            if (x.name == device) d = &x;
        }
        if (d == nullptr) {
            devices.push_back(Device{index, device, "roce", {}});
            d = &devices.back();
        }
        std::string ndev;
        for (const auto& l : links) {
            if (l.index == netdev) ndev = l.name;
        }
        d->ports.push_back(
            netlink::NlPort{index, device, port, static_cast<uint32_t>(netdev), ndev});
    }

    std::vector<uint8_t> answer_rdma(std::span<const uint8_t> req) {
        nlmsghdr h{};
        std::memcpy(&h, req.data(), sizeof h);
        const auto op = static_cast<uint16_t>(h.nlmsg_type & 0x3ff);
        NlBuilder b;
        if (op == RDMA_NLDEV_CMD_GET) {
            for (const auto& d : devices) {
                b.begin(RDMA_NLDEV_CMD_GET)
                    .u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index)
                    .str(RDMA_NLDEV_ATTR_DEV_NAME, d.name);
                if (!d.protocol.empty()) b.str(RDMA_NLDEV_ATTR_DEV_PROTOCOL, d.protocol);
                b.end();
            }
            return b.done().bytes();
        }
        if (op == RDMA_NLDEV_CMD_PORT_GET) {
            ++port_dumps;
            uint32_t index = 0;
            std::memcpy(&index, req.data() + sizeof h + 4, 4);
            for (const auto& d : devices) {
                if (d.index == index) return port_dump(d.ports);
            }
            return b.error(-ENODEV).bytes();
        }
        if (op == RDMA_NLDEV_CMD_RES_QP_GET || op == RDMA_NLDEV_CMD_RES_CM_ID_GET) {
            uint32_t index = 0;
            std::memcpy(&index, req.data() + sizeof h + 4, 4);
            for (const auto& d : devices) {
                if (d.index != index) continue;
                if (d.resource_error) return b.error(-d.resource_error).bytes();
                return op == RDMA_NLDEV_CMD_RES_QP_GET ? qp_dump(d.qps) : cm_id_dump(d.cm_ids);
            }
            return b.error(-ENODEV).bytes();
        }
        return b.error(-EOPNOTSUPP).bytes();
    }

    std::vector<uint8_t> answer_route(std::span<const uint8_t> req) {
        nlmsghdr h{};
        std::memcpy(&h, req.data(), sizeof h);
        if (h.nlmsg_type == RTM_GETLINK) {
            ++link_dumps;
            return link_dump(links);
        }
        if (h.nlmsg_type == RTM_GETADDR) {
            ++address_dumps;
            return address_dump(addresses);
        }
        return NlBuilder().error(-EOPNOTSUPP).bytes();
    }

    // Transports answering from this kernel; `events` is handed over as the event socket (-1:
    // none).
    netdev::NetdevIo io(int events = -1) {
        netdev::NetdevIo io;
        io.rdma = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    return answer_rdma(r);
                });
        };
        io.route = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    return answer_route(r);
                });
        };
        if (events >= 0) {
            io.events = [events]() -> Result<common::UniqueFd> { return common::UniqueFd(events); };
        }
        return io;
    }
};

}  // namespace rdmadiag::test
