#include "collector/sources/netlink/rdma_nl_parser.hpp"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>

namespace rdmadiag::netlink {

namespace {

// NLA_TYPE_MASK without the nested and byte-order flags (0xc000).
constexpr uint16_t kTypeMask = 0x3fff;

uint16_t msg_type(uint16_t op) {
    return static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op));
}

size_t align4(size_t n) {
    return (n + 3) & ~size_t{3};
}

template <class T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

struct Attr {
    uint16_t type;
    std::span<const uint8_t> data;
};

// Walks the attributes in `bytes`; stops with an error at the first one that does not fit.
Result<void> for_each_attr(std::span<const uint8_t> bytes,
                           const std::function<Result<void>(const Attr&)>& f) {
    size_t off = 0;
    while (off < bytes.size()) {
        if (bytes.size() - off < sizeof(nlattr)) return make_error("truncated attribute header");
        auto len = load<uint16_t>(bytes.data() + off);
        auto type = load<uint16_t>(bytes.data() + off + 2);
        if (len < sizeof(nlattr) || len > bytes.size() - off) {
            return make_error("attribute length " + std::to_string(len) + " out of bounds");
        }
        Attr a{static_cast<uint16_t>(type & kTypeMask),
               bytes.subspan(off + sizeof(nlattr), len - sizeof(nlattr))};
        RDMADIAG_TRY(f(a));
        off += align4(len);
    }
    return {};
}

Result<uint32_t> attr_u32(const Attr& a) {
    if (a.data.size() != 4)
        return make_error("u32 attribute of size " + std::to_string(a.data.size()));
    return load<uint32_t>(a.data.data());
}
Result<uint64_t> attr_u64(const Attr& a) {
    if (a.data.size() != 8)
        return make_error("u64 attribute of size " + std::to_string(a.data.size()));
    return load<uint64_t>(a.data.data());
}
Result<std::string> attr_string(const Attr& a) {
    const auto* p = reinterpret_cast<const char*>(a.data.data());
    size_t n = strnlen(p, a.data.size());
    if (n == a.data.size()) return make_error("string attribute without terminator");
    return std::string(p, n);
}

struct Message {
    uint16_t type;
    uint16_t flags;
    std::span<const uint8_t> payload;
};

// How a reply ends: a dump with NLMSG_DONE, a request sent with NLM_F_ACK (one answer) with
// the acknowledgement, an NLMSG_ERROR of code 0.
enum class ReplyEnd { done, ack };

// Walks netlink messages; NLMSG_ERROR becomes an error, NLMSG_DONE (or the acknowledgement, for
// ReplyEnd::ack) ends the walk.
Result<void> for_each_message(std::span<const uint8_t> bytes, uint16_t want,
                              const std::function<Result<void>(const Message&)>& f,
                              ReplyEnd end = ReplyEnd::done) {
    size_t off = 0;
    bool done = false;
    while (off < bytes.size() && !done) {
        if (bytes.size() - off < sizeof(nlmsghdr)) return make_error("truncated netlink header");
        auto h = load<nlmsghdr>(bytes.data() + off);
        if (h.nlmsg_len < sizeof(nlmsghdr) || h.nlmsg_len > bytes.size() - off) {
            return make_error("netlink message length " + std::to_string(h.nlmsg_len) +
                              " out of bounds");
        }
        auto payload = bytes.subspan(off + sizeof(nlmsghdr), h.nlmsg_len - sizeof(nlmsghdr));
        if (h.nlmsg_type == NLMSG_ERROR) {
            if (payload.size() < sizeof(int)) return make_error("truncated netlink error");
            int err = load<int>(payload.data());
            if (err == 0) {  // an acknowledgement
                if (end == ReplyEnd::ack) {
                    done = true;
                    break;
                }
                off += align4(h.nlmsg_len);
                continue;
            }
            // The kernel sends -errno. Anything else is not an error code, and negating INT_MIN
            // would overflow.
            if (err > 0 || err < -4095) {
                return make_error("netlink error with an invalid code " + std::to_string(err),
                                  EPROTO);
            }
            return make_error(std::string("netlink error: ") + std::strerror(-err), -err);
        }
        if (h.nlmsg_type == NLMSG_DONE) {
            done = true;
            break;
        }
        if (h.nlmsg_type == want) {
            RDMADIAG_TRY(f(Message{h.nlmsg_type, h.nlmsg_flags, payload}));
        }
        off += align4(h.nlmsg_len);
    }
    if (!done) {
        return make_error(end == ReplyEnd::done ? "dump ended without NLMSG_DONE"
                                                : "reply ended without its acknowledgement");
    }
    return {};
}

void put_attr_u32(std::vector<uint8_t>& out, uint16_t type, uint32_t v) {
    nlattr a{static_cast<uint16_t>(sizeof(nlattr) + 4), type};
    const auto* p = reinterpret_cast<const uint8_t*>(&a);
    out.insert(out.end(), p, p + sizeof a);
    const auto* q = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), q, q + 4);
}

std::vector<uint8_t> request(uint32_t seq, uint16_t op, std::optional<uint32_t> device,
                             std::optional<uint32_t> port = std::nullopt) {
    std::vector<uint8_t> out(sizeof(nlmsghdr));
    if (device) put_attr_u32(out, RDMA_NLDEV_ATTR_DEV_INDEX, *device);
    if (port) put_attr_u32(out, RDMA_NLDEV_ATTR_PORT_INDEX, *port);
    nlmsghdr h{};
    h.nlmsg_len = static_cast<uint32_t>(out.size());
    h.nlmsg_type = msg_type(op);
    // One port's statistics are one answer (a "doit"), which ends with the acknowledgement asked
    // for here; everything else is a dump.
    h.nlmsg_flags = port ? NLM_F_REQUEST | NLM_F_ACK : NLM_F_REQUEST | NLM_F_DUMP;
    h.nlmsg_seq = seq;
    std::memcpy(out.data(), &h, sizeof h);
    return out;
}

}  // namespace

bool nl_dump_finished(std::span<const uint8_t> bytes) {
    size_t off = 0;
    // A last message whose length is not a multiple of 4 moves `off` past the end: check that
    // first, or the subtraction wraps and the next header is read from beyond the buffer.
    while (off <= bytes.size() && bytes.size() - off >= sizeof(nlmsghdr)) {
        auto h = load<nlmsghdr>(bytes.data() + off);
        if (h.nlmsg_len < sizeof(nlmsghdr) || h.nlmsg_len > bytes.size() - off) return true;
        if (h.nlmsg_type == NLMSG_DONE || h.nlmsg_type == NLMSG_ERROR) return true;
        off += align4(h.nlmsg_len);
    }
    return false;
}

Result<std::vector<NlDevice>> parse_nl_device_dump(std::span<const uint8_t> bytes) {
    std::vector<NlDevice> out;
    RDMADIAG_TRY(for_each_message(
        bytes, msg_type(RDMA_NLDEV_CMD_GET), [&](const Message& m) -> Result<void> {
            NlDevice d;
            bool have_index = false;
            RDMADIAG_TRY(for_each_attr(m.payload, [&](const Attr& at) -> Result<void> {
                if (at.type == RDMA_NLDEV_ATTR_DEV_INDEX) {
                    d.index = RDMADIAG_TRY(attr_u32(at));
                    have_index = true;
                } else if (at.type == RDMA_NLDEV_ATTR_DEV_NAME) {
                    d.name = RDMADIAG_TRY(attr_string(at));
                }
                return {};
            }));
            if (!have_index || d.name.empty()) return make_error("device without index or name");
            out.push_back(std::move(d));
            return {};
        }));
    return out;
}

Result<MrInventory> parse_nl_mr_dump(std::span<const uint8_t> bytes, const std::string& device) {
    MrInventory inv;
    inv.device = device;
    inv.complete = true;
    auto parse_entry = [&](std::span<const uint8_t> entry) -> Result<void> {
        MrInventory::Entry e;
        bool have_mrn = false;
        RDMADIAG_TRY(for_each_attr(entry, [&](const Attr& a) -> Result<void> {
            switch (a.type) {
                case RDMA_NLDEV_ATTR_RES_MRN: {
                    e.mr = RDMADIAG_TRY(attr_u32(a));
                    have_mrn = true;
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_PID: {
                    e.pid = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_KERN_NAME: {
                    e.comm = RDMADIAG_TRY(attr_string(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_MRLEN: {
                    e.length = RDMADIAG_TRY(attr_u64(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_LKEY: {
                    e.lkey = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_RKEY: {
                    e.rkey = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                default:
                    break;
            }
            return {};
        }));
        if (!have_mrn) {
            inv.complete = false;  // an MR we cannot name: absence proves nothing now
            return {};
        }
        inv.mrs.push_back(std::move(e));
        return {};
    };
    RDMADIAG_TRY(for_each_message(
        bytes, msg_type(RDMA_NLDEV_CMD_RES_MR_GET), [&](const Message& m) -> Result<void> {
            if (m.flags & NLM_F_DUMP_INTR) inv.complete = false;
            return for_each_attr(m.payload, [&](const Attr& a) -> Result<void> {
                if (a.type != RDMA_NLDEV_ATTR_RES_MR) return {};
                return for_each_attr(a.data, [&](const Attr& entry) -> Result<void> {
                    if (entry.type != RDMA_NLDEV_ATTR_RES_MR_ENTRY) return {};
                    return parse_entry(entry.data);
                });
            });
        }));
    return inv;
}

Result<NlPortStats> parse_nl_port_stats(std::span<const uint8_t> bytes) {
    std::optional<NlPortStats> out;
    RDMADIAG_TRY(for_each_message(
        bytes, msg_type(RDMA_NLDEV_CMD_STAT_GET),
        [&](const Message& m) -> Result<void> {
            if (out) return make_error("more than one statistics message in the reply");
            NlPortStats s;
            bool have_index = false;
            bool have_port = false;
            bool have_table = false;
            auto entry = [&](std::span<const uint8_t> data) -> Result<void> {
                std::optional<std::string> name;
                std::optional<uint64_t> value;
                RDMADIAG_TRY(for_each_attr(data, [&](const Attr& a) -> Result<void> {
                    if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME) {
                        name = RDMADIAG_TRY(attr_string(a));
                    } else if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE) {
                        value = RDMADIAG_TRY(attr_u64(a));
                    }
                    return {};
                }));
                if (!name || name->empty() || !value) {
                    return make_error("hardware counter entry without name or value");
                }
                s.counters.push_back(NlCounter{std::move(*name), *value});
                return {};
            };
            RDMADIAG_TRY(for_each_attr(m.payload, [&](const Attr& at) -> Result<void> {
                switch (at.type) {
                    case RDMA_NLDEV_ATTR_DEV_INDEX:
                        s.device_index = RDMADIAG_TRY(attr_u32(at));
                        have_index = true;
                        break;
                    case RDMA_NLDEV_ATTR_DEV_NAME:
                        s.device = RDMADIAG_TRY(attr_string(at));
                        break;
                    case RDMA_NLDEV_ATTR_PORT_INDEX:
                        s.port = RDMADIAG_TRY(attr_u32(at));
                        have_port = true;
                        break;
                    case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
                        have_table = true;
                        return for_each_attr(at.data, [&](const Attr& e) -> Result<void> {
                            if (e.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY) return {};
                            return entry(e.data);
                        });
                    default:
                        break;
                }
                return {};
            }));
            if (!have_index || !have_port || !have_table) {
                return make_error("statistics without device index, port or counter table");
            }
            out = std::move(s);
            return {};
        },
        ReplyEnd::ack));
    if (!out) return make_error("reply without statistics", ENODATA);
    return std::move(*out);
}

std::vector<uint8_t> nl_port_stats_request(uint32_t seq, uint32_t device_index, uint32_t port) {
    return request(seq, RDMA_NLDEV_CMD_STAT_GET, device_index, port);
}

std::vector<uint8_t> nl_device_dump_request(uint32_t seq) {
    return request(seq, RDMA_NLDEV_CMD_GET, std::nullopt);
}

std::vector<uint8_t> nl_mr_dump_request(uint32_t seq, uint32_t device_index) {
    return request(seq, RDMA_NLDEV_CMD_RES_MR_GET, device_index);
}

}  // namespace rdmadiag::netlink
