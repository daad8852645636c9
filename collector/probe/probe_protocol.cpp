#include "collector/probe/probe_protocol.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmadiag::probe {

namespace {

constexpr size_t kMaxFdsPerMessage = 4;

bool valid_device_name(const char* name, size_t cap) {
    size_t n = strnlen(name, cap);
    if (n == 0 || n == cap) return false;
    for (size_t i = 0; i < n; ++i) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
        if (!ok) return false;
    }
    return true;
}

std::vector<int> descriptors_of(msghdr& mh) {
    std::vector<int> fds;
    for (cmsghdr* cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; ++i) {
            int fd = -1;
            std::memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
            fds.push_back(fd);
        }
    }
    return fds;
}

}  // namespace

CarriedFds& CarriedFds::operator=(CarriedFds&& other) noexcept {
    if (this != &other) {
        close_all();
        fds_ = std::move(other.fds_);
        other.fds_.clear();
    }
    return *this;
}

CarriedFds::~CarriedFds() {
    close_all();
}

void CarriedFds::close_all() {
    for (int fd : fds_) ::close(fd);
    fds_.clear();
}

Result<std::optional<ProbeMessage>> receive_probe_message(int fd) {
    ProbeMessage m;
    iovec iov{&m.body, sizeof m.body};
    alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof(int) * kMaxFdsPerMessage)];
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = cbuf;
    mh.msg_controllen = sizeof cbuf;
    ssize_t n = ::recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return std::optional<ProbeMessage>{};
        return make_error(std::string("receive failed: ") + std::strerror(errno), errno);
    }
    // A zero-length message may carry descriptors too: they are taken here like any others.
    m.fds = CarriedFds(descriptors_of(mh));
    m.length = static_cast<size_t>(n);
    m.truncated = (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0;
    return std::optional<ProbeMessage>{std::move(m)};
}

MessageEffect apply_probe_message(ProbeClient& c, const ProbeMessage& m,
                                  const ProbeLimits& limits) {
    MessageEffect effect;
    if (++c.messages > limits.max_messages) {
        effect.cut_off =
            "more than " + std::to_string(limits.max_messages) + " messages between polls";
        return effect;
    }
    const bool well_formed = m.length == sizeof m.body && !m.truncated &&
                             m.body.magic == RDMADIAG_PROBE_MAGIC &&
                             m.body.version == RDMADIAG_PROBE_VERSION;
    std::string bad;
    if (!well_formed) {
        bad = "malformed message";
    } else if (m.body.type == RDMADIAG_MSG_RING) {
        if (m.fds.size() != 1) {
            bad = "ring message without exactly one descriptor";
        } else if (c.rings.size() >= limits.max_rings_per_client) {
            effect.cut_off = "more than " + std::to_string(limits.max_rings_per_client) + " rings";
            return effect;
        } else {
            auto ring = RingReader::map(m.fds[0], limits.max_ring_bytes);
            if (!ring && ring.error().code == EBADMSG) {
                effect.cut_off = ring.error().message;
                return effect;
            }
            if (!ring) {
                bad = "ring refused: " + ring.error().message;
            } else {
                c.rings.push_back(std::move(ring).value());
                effect.ring_added = true;
            }
        }
    } else if (m.body.type == RDMADIAG_MSG_DOORBELL) {
        if (!m.fds.empty()) {
            bad = "doorbell with a descriptor";
        } else {
            ++c.doorbells;
            effect.doorbell = true;
        }
    } else if (m.body.type == RDMADIAG_MSG_DEVICE) {
        if (!m.fds.empty() || m.body.arg >= RDMADIAG_MAX_DEVICES ||
            !valid_device_name(m.body.name, sizeof m.body.name)) {
            bad = "bad device message";
        } else {
            c.devices[static_cast<uint8_t>(m.body.arg)] = std::string(m.body.name);
        }
    } else {
        bad = "unknown message type";
    }
    if (!bad.empty()) {
        effect.bad = true;
        if (++c.bad_messages > limits.max_bad_messages) effect.cut_off = bad;
    }
    return effect;
}

Result<bool> read_probe_messages(ProbeClient& c, const ProbeLimits& limits, ProbeStats& stats) {
    for (;;) {
        auto received = RDMADIAG_TRY(receive_probe_message(c.fd));
        if (!received) return true;
        const ProbeMessage& m = *received;
        // Closed (or crashed). A zero-length message reads the same.
        if (m.length == 0) return false;
        MessageEffect effect = apply_probe_message(c, m, limits);
        if (effect.ring_added) ++stats.rings;
        if (effect.doorbell) ++stats.doorbells;
        if (effect.bad) ++stats.bad_messages;
        if (!effect.cut_off.empty()) return make_error(effect.cut_off);
    }
}

}  // namespace rdmadiag::probe
