#include "collector/sources/netlink/nl_message.hpp"

#include <linux/netlink.h>

#include <cerrno>

namespace rdmadiag::netlink {

namespace {

// NLA_TYPE_MASK without the nested and byte-order flags (0xc000).
constexpr uint16_t kTypeMask = 0x3fff;

}  // namespace

Result<void> for_each_attr(std::span<const uint8_t> bytes,
                           const std::function<Result<void>(const NlAttr&)>& f) {
    size_t off = 0;
    while (off < bytes.size()) {
        if (bytes.size() - off < sizeof(nlattr)) return make_error("truncated attribute header");
        auto len = load<uint16_t>(bytes.data() + off);
        auto type = load<uint16_t>(bytes.data() + off + 2);
        if (len < sizeof(nlattr) || len > bytes.size() - off) {
            return make_error("attribute length " + std::to_string(len) + " out of bounds");
        }
        NlAttr a{static_cast<uint16_t>(type & kTypeMask),
                 bytes.subspan(off + sizeof(nlattr), len - sizeof(nlattr))};
        RDMADIAG_TRY(f(a));
        off += align4(len);
    }
    return {};
}

Result<uint8_t> attr_u8(const NlAttr& a) {
    if (a.data.size() != 1)
        return make_error("u8 attribute of size " + std::to_string(a.data.size()));
    return a.data[0];
}
Result<uint16_t> attr_u16(const NlAttr& a) {
    if (a.data.size() != 2)
        return make_error("u16 attribute of size " + std::to_string(a.data.size()));
    return load<uint16_t>(a.data.data());
}
Result<uint32_t> attr_u32(const NlAttr& a) {
    if (a.data.size() != 4)
        return make_error("u32 attribute of size " + std::to_string(a.data.size()));
    return load<uint32_t>(a.data.data());
}
Result<uint64_t> attr_u64(const NlAttr& a) {
    if (a.data.size() != 8)
        return make_error("u64 attribute of size " + std::to_string(a.data.size()));
    return load<uint64_t>(a.data.data());
}
Result<std::string> attr_string(const NlAttr& a) {
    const auto* p = reinterpret_cast<const char*>(a.data.data());
    size_t n = strnlen(p, a.data.size());
    if (n == a.data.size()) return make_error("string attribute without terminator");
    return std::string(p, n);
}

Result<void> for_each_message(std::span<const uint8_t> bytes, uint16_t want,
                              const std::function<Result<void>(const NlMessage&)>& f,
                              ReplyEnd end) {
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
            RDMADIAG_TRY(f(NlMessage{h.nlmsg_type, h.nlmsg_flags, payload}));
        }
        off += align4(h.nlmsg_len);
    }
    if (!done) {
        return make_error(end == ReplyEnd::done ? "dump ended without NLMSG_DONE"
                                                : "reply ended without its acknowledgement");
    }
    return {};
}

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

void put_attr_u32(std::vector<uint8_t>& out, uint16_t type, uint32_t v) {
    nlattr a{static_cast<uint16_t>(sizeof(nlattr) + 4), type};
    const auto* p = reinterpret_cast<const uint8_t*>(&a);
    out.insert(out.end(), p, p + sizeof a);
    const auto* q = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), q, q + 4);
}

}  // namespace rdmadiag::netlink
