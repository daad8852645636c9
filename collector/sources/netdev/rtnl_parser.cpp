#include "collector/sources/netdev/rtnl_parser.hpp"

#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "collector/sources/netlink/nl_message.hpp"

namespace rdmadiag::netdev {

using netlink::attr_string;
using netlink::attr_u32;
using netlink::for_each_attr;
using netlink::NlAttr;
using netlink::NlMessage;

namespace {

Result<int32_t> attr_index(const NlAttr& a) {
    return static_cast<int32_t>(RDMADIAG_TRY(attr_u32(a)));
}

// IFLA_LINKINFO: the kind, and for a bond its active slave.
Result<void> parse_link_info(std::span<const uint8_t> bytes, Link& l) {
    std::span<const uint8_t> data;
    RDMADIAG_TRY(for_each_attr(bytes, [&](const NlAttr& a) -> Result<void> {
        if (a.type == IFLA_INFO_KIND) {
            l.kind = RDMADIAG_TRY(attr_string(a));
        } else if (a.type == IFLA_INFO_DATA) {
            data = a.data;
        }
        return {};
    }));
    if (l.kind == "bond") {
        return for_each_attr(data, [&](const NlAttr& a) -> Result<void> {
            if (a.type == IFLA_BOND_ACTIVE_SLAVE) l.bond_active_slave = RDMADIAG_TRY(attr_index(a));
            return {};
        });
    }
    if (l.kind != "ipoib") return {};
    Link::Ipoib ipoib;
    RDMADIAG_TRY(for_each_attr(data, [&](const NlAttr& a) -> Result<void> {
        if (a.type == IFLA_IPOIB_PKEY) ipoib.pkey = RDMADIAG_TRY(netlink::attr_u16(a));
        if (a.type == IFLA_IPOIB_MODE) ipoib.mode = RDMADIAG_TRY(netlink::attr_u16(a));
        if (a.type == IFLA_IPOIB_UMCAST) ipoib.umcast = RDMADIAG_TRY(netlink::attr_u16(a)) != 0;
        return {};
    }));
    l.ipoib = ipoib;
    return {};
}

Result<std::array<uint8_t, 16>> attr_ip(const NlAttr& a, uint8_t family) {
    const size_t want = family == AF_INET ? 4 : 16;
    if (a.data.size() != want) {
        return make_error("address attribute of size " + std::to_string(a.data.size()) +
                          " for family " + std::to_string(family));
    }
    std::array<uint8_t, 16> out{};
    std::copy(a.data.begin(), a.data.end(), out.begin());
    return out;
}

// A dump the kernel flags as interrupted mixes the tables before and after a change.
Result<void> check_consistent(const NlMessage& m) {
    if (m.flags & NLM_F_DUMP_INTR) return make_error("dump interrupted by a change", EAGAIN);
    return {};
}

std::vector<uint8_t> dump_request(uint32_t seq, uint16_t type, const void* body, size_t size) {
    std::vector<uint8_t> out(NLMSG_LENGTH(size));
    nlmsghdr h{};
    h.nlmsg_len = static_cast<uint32_t>(out.size());
    h.nlmsg_type = type;
    h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    h.nlmsg_seq = seq;
    std::memcpy(out.data(), &h, sizeof h);
    std::memcpy(out.data() + NLMSG_HDRLEN, body, size);
    return out;
}

}  // namespace

bool Link::up() const {
    return (flags & IFF_UP) != 0;
}

bool Address::tentative() const {
    return (flags & IFA_F_TENTATIVE) != 0;
}

bool Address::dad_failed() const {
    return (flags & IFA_F_DADFAILED) != 0;
}

Result<std::vector<Link>> parse_link_dump(std::span<const uint8_t> bytes) {
    std::vector<Link> out;
    RDMADIAG_TRY(
        netlink::for_each_message(bytes, RTM_NEWLINK, [&](const NlMessage& m) -> Result<void> {
            RDMADIAG_TRY(check_consistent(m));
            if (m.payload.size() < sizeof(ifinfomsg)) return make_error("truncated ifinfomsg");
            const auto ifi = netlink::load<ifinfomsg>(m.payload.data());
            Link l;
            l.index = ifi.ifi_index;
            l.type = ifi.ifi_type;
            l.flags = ifi.ifi_flags;
            bool other_netns = false;
            RDMADIAG_TRY(
                for_each_attr(m.payload.subspan(NLMSG_ALIGN(sizeof(ifinfomsg)) <= m.payload.size()
                                                    ? NLMSG_ALIGN(sizeof(ifinfomsg))
                                                    : m.payload.size()),
                              [&](const NlAttr& a) -> Result<void> {
                                  switch (a.type) {
                                      case IFLA_IFNAME:
                                          l.name = RDMADIAG_TRY(attr_string(a));
                                          break;
                                      case IFLA_ADDRESS:
                                          // Ethernet: 6 bytes; InfiniBand: 20; others differ.
                                          if (a.data.size() == 6) {
                                              std::array<uint8_t, 6> mac{};
                                              std::copy(a.data.begin(), a.data.end(), mac.begin());
                                              l.mac = mac;
                                          } else if (a.data.size() == 20) {
                                              std::array<uint8_t, 20> ib{};
                                              std::copy(a.data.begin(), a.data.end(), ib.begin());
                                              l.ib_address = ib;
                                          }
                                          break;
                                      case IFLA_CARRIER:
                                          l.carrier = RDMADIAG_TRY(netlink::attr_u8(a)) != 0;
                                          break;
                                      case IFLA_CARRIER_CHANGES:
                                          l.carrier_changes = RDMADIAG_TRY(attr_u32(a));
                                          break;
                                      case IFLA_OPERSTATE:
                                          l.operstate = RDMADIAG_TRY(netlink::attr_u8(a));
                                          break;
                                      case IFLA_LINK:
                                          l.link = RDMADIAG_TRY(attr_index(a));
                                          break;
                                      case IFLA_LINK_NETNSID:
                                          other_netns = true;
                                          break;
                                      case IFLA_MASTER:
                                          l.master = RDMADIAG_TRY(attr_index(a));
                                          break;
                                      case IFLA_LINKINFO:
                                          RDMADIAG_TRY(parse_link_info(a.data, l));
                                          break;
                                      default:
                                          break;
                                  }
                                  return {};
                              }));
            if (l.index <= 0 || l.name.empty()) return make_error("link without index or name");
            if (other_netns || (l.link && *l.link == l.index)) l.link.reset();
            out.push_back(std::move(l));
            return {};
        }));
    return out;
}

Result<std::vector<Address>> parse_address_dump(std::span<const uint8_t> bytes) {
    std::vector<Address> out;
    RDMADIAG_TRY(
        netlink::for_each_message(bytes, RTM_NEWADDR, [&](const NlMessage& m) -> Result<void> {
            RDMADIAG_TRY(check_consistent(m));
            if (m.payload.size() < sizeof(ifaddrmsg)) return make_error("truncated ifaddrmsg");
            const auto ifa = netlink::load<ifaddrmsg>(m.payload.data());
            if (ifa.ifa_family != AF_INET && ifa.ifa_family != AF_INET6) return {};
            Address addr;
            addr.index = static_cast<int32_t>(ifa.ifa_index);
            addr.family = ifa.ifa_family;
            addr.prefix = ifa.ifa_prefixlen;
            addr.flags = ifa.ifa_flags;
            RDMADIAG_TRY(
                for_each_attr(m.payload.subspan(NLMSG_ALIGN(sizeof(ifaddrmsg)) <= m.payload.size()
                                                    ? NLMSG_ALIGN(sizeof(ifaddrmsg))
                                                    : m.payload.size()),
                              [&](const NlAttr& a) -> Result<void> {
                                  switch (a.type) {
                                      case IFA_ADDRESS:
                                          addr.address = RDMADIAG_TRY(attr_ip(a, addr.family));
                                          break;
                                      case IFA_LOCAL:
                                          addr.local = RDMADIAG_TRY(attr_ip(a, addr.family));
                                          break;
                                      case IFA_FLAGS:
                                          addr.flags = RDMADIAG_TRY(attr_u32(a));
                                          break;
                                      default:
                                          break;
                                  }
                                  return {};
                              }));
            if (addr.index <= 0) return make_error("address without a link index");
            if (!addr.address && !addr.local) return make_error("address message without address");
            out.push_back(addr);
            return {};
        }));
    return out;
}

std::vector<uint8_t> link_dump_request(uint32_t seq) {
    ifinfomsg body{};
    body.ifi_family = AF_UNSPEC;
    return dump_request(seq, RTM_GETLINK, &body, sizeof body);
}

std::vector<uint8_t> address_dump_request(uint32_t seq) {
    ifaddrmsg body{};
    body.ifa_family = AF_UNSPEC;
    return dump_request(seq, RTM_GETADDR, &body, sizeof body);
}

}  // namespace rdmadiag::netdev
