#pragma once
// QP and CM ID dumps laid out as the kernel lays them out, built from the parser's own structs
// (so that what is built parses back to the same).

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

#include <cstring>
#include <vector>

#include "collector/sources/netlink/res_dump_parser.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"

namespace rdmadiag::test {

inline void put_u8(NlBuilder& b, uint16_t type, uint8_t v) {
    b.data(type, &v, 1);
}

inline void put_owner(NlBuilder& b, const netlink::NlResOwner& o) {
    if (o.pid) b.u32(RDMA_NLDEV_ATTR_RES_PID, *o.pid);
    if (!o.kernel_name.empty()) b.str(RDMA_NLDEV_ATTR_RES_KERN_NAME, o.kernel_name);
}

// The kernel fills one message a dump callback, as many entries as its buffer holds, and goes on
// in the next; a table of thousands spans many messages (an attribute's length has 16 bits).
inline constexpr size_t kEntriesPerMessage = 32;

inline std::vector<uint8_t> qp_dump(const std::vector<netlink::NlQp>& qps) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_QP_GET).nest(RDMA_NLDEV_ATTR_RES_QP);
    size_t in_message = 0;
    for (const auto& q : qps) {
        if (in_message++ == kEntriesPerMessage) {
            b.unnest().end().begin(RDMA_NLDEV_CMD_RES_QP_GET).nest(RDMA_NLDEV_ATTR_RES_QP);
            in_message = 1;
        }
        b.nest(RDMA_NLDEV_ATTR_RES_QP_ENTRY).u32(RDMA_NLDEV_ATTR_RES_LQPN, q.qpn);
        if (q.port) b.u32(RDMA_NLDEV_ATTR_PORT_INDEX, *q.port);
        put_u8(b, RDMA_NLDEV_ATTR_RES_TYPE, q.type);
        put_u8(b, RDMA_NLDEV_ATTR_RES_STATE, q.state);
        if (q.pdn) b.u32(RDMA_NLDEV_ATTR_RES_PDN, *q.pdn);
        put_owner(b, q.owner);
        b.unnest();
    }
    b.unnest().end().done();
    return b.bytes();
}

// The 128 bytes of struct __kernel_sockaddr_storage the kernel sends for an address.
inline std::vector<uint8_t> sockaddr_bytes(const netlink::NlSockAddr& a) {
    std::vector<uint8_t> out(128);
    std::memcpy(out.data(), &a.family, 2);
    auto be16 = [&](size_t at, uint16_t v) {
        out[at] = static_cast<uint8_t>(v >> 8);
        out[at + 1] = static_cast<uint8_t>(v);
    };
    if (a.family == AF_INET) {
        be16(2, a.port);
        std::memcpy(out.data() + 4, a.address.data() + 12, 4);
    } else if (a.family == AF_INET6) {
        be16(2, a.port);
        std::memcpy(out.data() + 8, a.address.data(), 16);
    } else if (a.family == AF_IB) {
        be16(2, a.pkey.value_or(0));
        std::memcpy(out.data() + 8, a.address.data(), 16);
        const uint64_t sid = a.service.value_or(0);
        for (size_t i = 0; i < 8; ++i) out[24 + i] = static_cast<uint8_t>(sid >> (56 - 8 * i));
    }
    return out;
}

inline std::vector<uint8_t> cm_id_dump(const std::vector<netlink::NlCmId>& ids) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_CM_ID_GET).nest(RDMA_NLDEV_ATTR_RES_CM_ID);
    size_t in_message = 0;
    for (const auto& c : ids) {
        if (in_message++ == kEntriesPerMessage) {
            b.unnest().end().begin(RDMA_NLDEV_CMD_RES_CM_ID_GET).nest(RDMA_NLDEV_ATTR_RES_CM_ID);
            in_message = 1;
        }
        b.nest(RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY).u32(RDMA_NLDEV_ATTR_RES_CM_IDN, c.id);
        if (c.port) b.u32(RDMA_NLDEV_ATTR_PORT_INDEX, *c.port);
        b.u32(RDMA_NLDEV_ATTR_RES_PS, c.port_space);
        put_u8(b, RDMA_NLDEV_ATTR_RES_STATE, c.state);
        if (c.qpn) b.u32(RDMA_NLDEV_ATTR_RES_LQPN, *c.qpn);
        if (c.qp_type) put_u8(b, RDMA_NLDEV_ATTR_RES_TYPE, *c.qp_type);
        if (c.source) {
            const auto raw = sockaddr_bytes(*c.source);
            b.data(RDMA_NLDEV_ATTR_RES_SRC_ADDR, raw.data(), raw.size());
        }
        if (c.destination) {
            const auto raw = sockaddr_bytes(*c.destination);
            b.data(RDMA_NLDEV_ATTR_RES_DST_ADDR, raw.data(), raw.size());
        }
        put_owner(b, c.owner);
        b.unnest();
    }
    b.unnest().end().done();
    return b.bytes();
}

}  // namespace rdmadiag::test
