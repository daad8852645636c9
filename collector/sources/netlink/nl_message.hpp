#pragma once
// Walking netlink bytes, for every netlink family rdmadiag reads (RDMA netlink, rtnetlink):
// messages up to NLMSG_DONE or the acknowledgement, and the attributes inside one. Every length
// is checked against what is left, so a malformed reply is an error, never a read past the buffer.

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::netlink {

template <class T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline size_t align4(size_t n) {
    return (n + 3) & ~size_t{3};
}

struct NlAttr {
    uint16_t type;  // without the nested and byte-order flags
    std::span<const uint8_t> data;
};

// Walks the attributes in `bytes`; stops with an error at the first one that does not fit.
Result<void> for_each_attr(std::span<const uint8_t> bytes,
                           const std::function<Result<void>(const NlAttr&)>& f);

Result<uint8_t> attr_u8(const NlAttr& a);
Result<uint16_t> attr_u16(const NlAttr& a);
Result<uint32_t> attr_u32(const NlAttr& a);
Result<uint64_t> attr_u64(const NlAttr& a);
// A NUL-terminated string attribute, without its terminator.
Result<std::string> attr_string(const NlAttr& a);

struct NlMessage {
    uint16_t type;
    uint16_t flags;
    std::span<const uint8_t> payload;
};

// How a reply ends: a dump with NLMSG_DONE, a request sent with NLM_F_ACK (one answer) with the
// acknowledgement, an NLMSG_ERROR of code 0.
enum class ReplyEnd { done, ack };

// Walks netlink messages, calling `f` for those of type `want`; NLMSG_ERROR becomes an error
// carrying the kernel's errno, NLMSG_DONE (or the acknowledgement, for ReplyEnd::ack) ends the
// walk, and bytes that end before it are an error.
Result<void> for_each_message(std::span<const uint8_t> bytes, uint16_t want,
                              const std::function<Result<void>(const NlMessage&)>& f,
                              ReplyEnd end = ReplyEnd::done);

// Whether the bytes hold the whole dump (an NLMSG_DONE or NLMSG_ERROR was seen).
bool nl_dump_finished(std::span<const uint8_t> bytes);

void put_attr_u32(std::vector<uint8_t>& out, uint16_t type, uint32_t v);

}  // namespace rdmadiag::netlink
