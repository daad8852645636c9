#include "collector/sources/netlink/res_dump_parser.hpp"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

#include <cstdio>

#include "collector/sources/netlink/nl_message.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"

namespace rdmadiag::netlink {

namespace {

uint16_t be16(const uint8_t* p) {
    return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

uint64_t be64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
    return v;
}

// Offsets in struct sockaddr_in, sockaddr_in6 and sockaddr_ib (the kernel's include/rdma/ib.h:
// family, __be16 sib_pkey, __be32 sib_flowinfo, 16-byte sib_addr, __be64 sib_sid).
constexpr size_t kInPort = 2, kInAddr = 4, kIn6Addr = 8, kIbPkey = 2, kIbAddr = 8, kIbSid = 24;

Result<NlSockAddr> attr_sockaddr(const NlAttr& a) {
    const auto& d = a.data;
    if (d.size() < 2) return make_error("socket address shorter than its family");
    NlSockAddr out;
    out.family = load<uint16_t>(d.data());
    switch (out.family) {
        case 0:
            return out;
        case AF_INET:
            if (d.size() < kInAddr + 4) return make_error("IPv4 socket address too short");
            out.port = be16(d.data() + kInPort);
            out.address[10] = out.address[11] = 0xff;
            std::copy_n(d.data() + kInAddr, 4, out.address.begin() + 12);
            return out;
        case AF_INET6:
            if (d.size() < kIn6Addr + 16) return make_error("IPv6 socket address too short");
            out.port = be16(d.data() + kInPort);
            std::copy_n(d.data() + kIn6Addr, 16, out.address.begin());
            return out;
        case AF_IB:
            if (d.size() < kIbSid + 8) return make_error("AF_IB socket address too short");
            out.pkey = be16(d.data() + kIbPkey);
            std::copy_n(d.data() + kIbAddr, 16, out.address.begin());
            out.service = be64(d.data() + kIbSid);
            return out;
        default:
            return make_error("socket address of unknown family " + std::to_string(out.family));
    }
}

// The attributes every resource entry may carry about its owner.
bool read_owner(const NlAttr& a, NlResOwner& owner, Result<void>& status) {
    if (a.type == RDMA_NLDEV_ATTR_RES_PID) {
        auto v = attr_u32(a);
        if (!v)
            status = v.error();
        else
            owner.pid = *v;
        return true;
    }
    if (a.type == RDMA_NLDEV_ATTR_RES_KERN_NAME) {
        auto v = attr_string(a);
        if (!v)
            status = v.error();
        else
            owner.kernel_name = std::move(*v);
        return true;
    }
    return false;
}

// Walks a resource dump's messages, their table attribute and its entries.
template <class T>
Result<NlResDump<T>> walk_dump(
    std::span<const uint8_t> bytes, uint16_t command, uint16_t table, uint16_t entry_type,
    const std::function<Result<std::optional<T>>(std::span<const uint8_t>)>& parse_entry) {
    NlResDump<T> dump;
    RDMADIAG_TRY(
        for_each_message(bytes, nldev_msg_type(command), [&](const NlMessage& m) -> Result<void> {
            if (m.flags & NLM_F_DUMP_INTR) dump.complete = false;
            return for_each_attr(m.payload, [&](const NlAttr& t) -> Result<void> {
                if (t.type != table) return {};
                return for_each_attr(t.data, [&](const NlAttr& e) -> Result<void> {
                    if (e.type != entry_type) return {};
                    auto entry = RDMADIAG_TRY(parse_entry(e.data));
                    if (entry)
                        dump.entries.push_back(std::move(*entry));
                    else
                        dump.complete = false;  // an entry we cannot name
                    return {};
                });
            });
        }));
    return dump;
}

Result<std::optional<NlQp>> parse_qp(std::span<const uint8_t> bytes) {
    NlQp qp;
    bool have_qpn = false;
    RDMADIAG_TRY(for_each_attr(bytes, [&](const NlAttr& a) -> Result<void> {
        Result<void> status;
        if (read_owner(a, qp.owner, status)) return status;
        switch (a.type) {
            case RDMA_NLDEV_ATTR_RES_LQPN:
                qp.qpn = RDMADIAG_TRY(attr_u32(a));
                have_qpn = true;
                break;
            case RDMA_NLDEV_ATTR_PORT_INDEX:
                qp.port = RDMADIAG_TRY(attr_u32(a));
                break;
            case RDMA_NLDEV_ATTR_RES_TYPE:
                qp.type = RDMADIAG_TRY(attr_u8(a));
                break;
            case RDMA_NLDEV_ATTR_RES_STATE:
                qp.state = RDMADIAG_TRY(attr_u8(a));
                break;
            case RDMA_NLDEV_ATTR_RES_PDN:
                qp.pdn = RDMADIAG_TRY(attr_u32(a));
                break;
            default:
                break;
        }
        return {};
    }));
    if (!have_qpn) return std::optional<NlQp>{};
    return std::optional<NlQp>{std::move(qp)};
}

Result<std::optional<NlCmId>> parse_cm_id(std::span<const uint8_t> bytes) {
    NlCmId id;
    bool have_id = false;
    RDMADIAG_TRY(for_each_attr(bytes, [&](const NlAttr& a) -> Result<void> {
        Result<void> status;
        if (read_owner(a, id.owner, status)) return status;
        switch (a.type) {
            case RDMA_NLDEV_ATTR_RES_CM_IDN:
                id.id = RDMADIAG_TRY(attr_u32(a));
                have_id = true;
                break;
            case RDMA_NLDEV_ATTR_PORT_INDEX:
                id.port = RDMADIAG_TRY(attr_u32(a));
                break;
            case RDMA_NLDEV_ATTR_RES_PS:
                id.port_space = RDMADIAG_TRY(attr_u32(a));
                break;
            case RDMA_NLDEV_ATTR_RES_STATE:
                id.state = RDMADIAG_TRY(attr_u8(a));
                break;
            case RDMA_NLDEV_ATTR_RES_LQPN:
                id.qpn = RDMADIAG_TRY(attr_u32(a));
                break;
            case RDMA_NLDEV_ATTR_RES_TYPE:
                id.qp_type = RDMADIAG_TRY(attr_u8(a));
                break;
            case RDMA_NLDEV_ATTR_RES_SRC_ADDR:
                id.source = RDMADIAG_TRY(attr_sockaddr(a));
                break;
            case RDMA_NLDEV_ATTR_RES_DST_ADDR:
                id.destination = RDMADIAG_TRY(attr_sockaddr(a));
                break;
            default:
                break;
        }
        return {};
    }));
    if (!have_id) return std::optional<NlCmId>{};
    return std::optional<NlCmId>{std::move(id)};
}

}  // namespace

Result<NlResDump<NlQp>> parse_nl_qp_dump(std::span<const uint8_t> bytes) {
    return walk_dump<NlQp>(bytes, RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_RES_QP,
                           RDMA_NLDEV_ATTR_RES_QP_ENTRY, parse_qp);
}

Result<NlResDump<NlCmId>> parse_nl_cm_id_dump(std::span<const uint8_t> bytes) {
    return walk_dump<NlCmId>(bytes, RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_NLDEV_ATTR_RES_CM_ID,
                             RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, parse_cm_id);
}

std::string to_string(const NlSockAddr& a) {
    char text[INET6_ADDRSTRLEN] = {};
    switch (a.family) {
        case AF_INET:
            inet_ntop(AF_INET, a.address.data() + 12, text, sizeof text);
            return std::string(text) + ":" + std::to_string(a.port);
        case AF_INET6:
            inet_ntop(AF_INET6, a.address.data(), text, sizeof text);
            return "[" + std::string(text) + "]:" + std::to_string(a.port);
        case AF_IB: {
            inet_ntop(AF_INET6, a.address.data(), text, sizeof text);
            char tail[48];
            std::snprintf(tail, sizeof tail, " pkey 0x%04x sid 0x%016llx", a.pkey.value_or(0),
                          static_cast<unsigned long long>(a.service.value_or(0)));
            return text + std::string(tail);
        }
        default:
            return "-";
    }
}

bool is_unspecified(const NlSockAddr& a) {
    if (a.family == 0) return true;
    std::array<uint8_t, 16> zero{};
    if (a.family == AF_INET)
        return std::equal(a.address.begin() + 12, a.address.end(), zero.begin());
    return a.address == zero;
}

std::string_view qp_type_name(uint8_t type) {
    // enum ib_qp_type; 7 has no name there.
    static constexpr std::string_view names[] = {
        "SMI",           "GSI",     "RC",         "UC",      "UD",     "RAW_IPV6",
        "RAW_ETHERTYPE", "UNKNOWN", "RAW_PACKET", "XRC_INI", "XRC_TGT"};
    return type < std::size(names) ? names[type] : "UNKNOWN";
}

std::string_view qp_state_name(uint8_t state) {
    static constexpr std::string_view names[] = {"RESET", "INIT", "RTR", "RTS",
                                                 "SQD",   "SQE",  "ERR"};
    return state < std::size(names) ? names[state] : "UNKNOWN";
}

std::string_view cm_state_name(uint8_t state) {
    static constexpr std::string_view names[] = {
        "IDLE",       "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY",    "ROUTE_RESOLVED", "CONNECT",
        "DISCONNECT", "ADDR_BOUND", "LISTEN",        "DEVICE_REMOVAL", "DESTROYING"};
    return state < std::size(names) ? names[state] : "UNKNOWN";
}

std::string_view port_space_name(uint32_t port_space) {
    switch (port_space) {
        case 0x0002:
            return "IPOIB";
        case 0x013F:
            return "IB";
        case 0x0106:
            return "TCP";
        case 0x0111:
            return "UDP";
        default:
            return "UNKNOWN";
    }
}

}  // namespace rdmadiag::netlink
