#pragma once
// Builds netlink reply bytes for parser tests, as the kernel lays them out: RDMA netlink (begin())
// or any other family (begin_type(), with its fixed header through raw()).

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rdmadiag::test {

class NlBuilder {
public:
    NlBuilder& begin(uint16_t op, uint16_t flags = NLM_F_MULTI) {
        msg_start_ = bytes_.size();
        nlmsghdr h{};
        h.nlmsg_type = static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op));
        h.nlmsg_flags = flags;
        append(&h, sizeof h);
        return *this;
    }
    NlBuilder& begin_type(uint16_t type, uint16_t flags = NLM_F_MULTI) {
        msg_start_ = bytes_.size();
        nlmsghdr h{};
        h.nlmsg_type = type;
        h.nlmsg_flags = flags;
        append(&h, sizeof h);
        return *this;
    }
    NlBuilder& end() {
        uint32_t len = static_cast<uint32_t>(bytes_.size() - msg_start_);
        std::memcpy(bytes_.data() + msg_start_, &len, 4);
        return *this;
    }
    NlBuilder& u32(uint16_t type, uint32_t v) { return attr(type, &v, 4); }
    NlBuilder& u64(uint16_t type, uint64_t v) { return attr(type, &v, 8); }
    NlBuilder& str(uint16_t type, const std::string& s) {
        return attr(type, s.c_str(), s.size() + 1);
    }
    NlBuilder& data(uint16_t type, const void* p, size_t n) { return attr(type, p, n); }
    NlBuilder& nest(uint16_t type) {
        nests_.push_back(bytes_.size());
        nlattr a{0, static_cast<uint16_t>(type | NLA_F_NESTED)};
        append(&a, sizeof a);
        return *this;
    }
    NlBuilder& unnest() {
        size_t at = nests_.back();
        nests_.pop_back();
        uint16_t len = static_cast<uint16_t>(bytes_.size() - at);
        std::memcpy(bytes_.data() + at, &len, 2);
        return *this;
    }
    NlBuilder& done() {
        nlmsghdr h{};
        h.nlmsg_len = sizeof h + 4;
        h.nlmsg_type = NLMSG_DONE;
        append(&h, sizeof h);
        int zero = 0;
        append(&zero, 4);
        return *this;
    }
    NlBuilder& error(int err) {
        nlmsghdr h{};
        h.nlmsg_len = sizeof h + sizeof(nlmsgerr);
        h.nlmsg_type = NLMSG_ERROR;
        append(&h, sizeof h);
        nlmsgerr e{};
        e.error = err;
        append(&e, sizeof e);
        return *this;
    }
    NlBuilder& mr_entry(uint32_t mrn, uint32_t pid, uint64_t len) {
        nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY);
        u32(RDMA_NLDEV_ATTR_RES_MRN, mrn).u32(RDMA_NLDEV_ATTR_RES_PID, pid);
        u64(RDMA_NLDEV_ATTR_RES_MRLEN, len);
        return unnest();
    }
    NlBuilder& raw(const void* p, size_t n) {
        append(p, n);
        return *this;
    }
    std::vector<uint8_t>& bytes() { return bytes_; }

private:
    NlBuilder& attr(uint16_t type, const void* data, size_t n) {
        nlattr a{static_cast<uint16_t>(sizeof(nlattr) + n), type};
        append(&a, sizeof a);
        append(data, n);
        while (bytes_.size() % 4) bytes_.push_back(0);
        return *this;
    }
    void append(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        bytes_.insert(bytes_.end(), b, b + n);
    }
    std::vector<uint8_t> bytes_;
    std::vector<size_t> nests_;
    size_t msg_start_ = 0;
};

}  // namespace rdmadiag::test
