// A probe client on the collector's socket: SOCK_SEQPACKET messages, some carrying descriptors
// (a ring memfd, or something that is not one), then the rings drained on a poll. The input is
// a series of chunks, each [kind:1][message length:2][message][ring length:2][ring bytes] (ring
// part only when kind & 1; kind & 2 adds a pipe as a second descriptor). Whatever the client
// sends, the collector keeps its bounds, accounts for every message, emits only what its rings
// hold, and lets go of the client when it leaves.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "collector/probe/probe_clocks.hpp"
#include "collector/probe/probe_limits.hpp"
#include "collector/probe/probe_source.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/support/temp_dir.hpp"

using namespace rdmadiag;

namespace {

constexpr size_t kMaxRingBytes = 1 << 14;

probe::ProbeLimits limits() {
    probe::ProbeLimits l;
    l.max_clients = 2;
    l.max_rings_per_client = 4;
    l.max_ring_bytes = kMaxRingBytes;
    l.max_records_per_poll = 64;
    l.max_invalid_records = 16;
    l.max_bad_messages = 4;
    l.max_messages = 32;
    l.max_doorbells = 4;
    return l;
}

// Clocks that advance by a fixed step on every reading: record times, and so the paths taken,
// depend on the input alone, not on when the run happens.
int64_t stepping_monotonic_ns() {
    static int64_t now = 1'000'000'000;
    return now += 1'000'000;
}
uint64_t stepping_tsc() {
    static uint64_t now = 3'000'000'000;
    return now += 3'000'000;
}

probe::ProbeSource& source() {
    // Made before the source, so removed after it at exit.
    static const test::TempDir dir("probe-fuzz");
    static sources::SourceSettings settings = [] {
        sources::SourceSettings s;
        s.options.set("probe.socket", dir.file("probe.sock"), true);
        s.procfs_root = "/nonexistent";
        return s;
    }();
    // Its destructor removes the socket at exit.
    static probe::ProbeSource s(settings, limits(),
                                probe::ProbeClocks{&stepping_monotonic_ns, &stepping_tsc});
    FUZZ_CHECK(s.availability().available);
    return s;
}

int sealed_memfd(const uint8_t* data, size_t size) {
    int fd = memfd_create("probe-fuzz-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(::write(fd, data, size) == static_cast<ssize_t>(size));
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
    return fd;
}

class Reader {
public:
    Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
    bool done() const { return p_ >= end_; }
    uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
    uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
    const uint8_t* bytes(size_t& n) {
        n = std::min(n, static_cast<size_t>(end_ - p_));
        const uint8_t* at = p_;
        p_ += n;
        return at;
    }

private:
    const uint8_t* p_;
    const uint8_t* end_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    probe::ProbeSource& src = source();
    const int epoll_fd = src.event_fds().at(0);
    const TimePoint now{std::chrono::hours(1)};
    sources::VectorSink sink;
    const probe::ProbeStats before = src.stats();

    int client = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    FUZZ_CHECK(client >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, src.socket_path().c_str(), sizeof addr.sun_path - 1);
    FUZZ_CHECK(::connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    src.on_readable(epoll_fd, now, sink);
    FUZZ_CHECK(src.clients() == 1);

    Reader in(data, size);
    size_t sent = 0;
    size_t descriptors = 0;
    while (!in.done() && sent < 64) {
        uint8_t kind = in.u8();
        size_t msg_len = std::min<size_t>(in.u16(), 256);
        const uint8_t* msg = in.bytes(msg_len);
        int fds[2] = {-1, -1};
        size_t nfds = 0;
        if (kind & 1) {
            size_t ring_len = std::min<size_t>(in.u16(), kMaxRingBytes + 64);
            const uint8_t* ring = in.bytes(ring_len);
            fds[nfds++] = sealed_memfd(ring, ring_len);
        }
        int pipe_fds[2] = {-1, -1};
        if ((kind & 2) && ::pipe2(pipe_fds, O_CLOEXEC) == 0) fds[nfds++] = pipe_fds[0];

        iovec iov{const_cast<uint8_t*>(msg), msg_len};
        alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof fds)];
        msghdr mh{};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        if (nfds > 0) {
            mh.msg_control = cbuf;
            mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
            cmsghdr* cm = CMSG_FIRSTHDR(&mh);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN(nfds * sizeof(int));
            std::memcpy(CMSG_DATA(cm), fds, nfds * sizeof(int));
        }
        bool ok = ::sendmsg(client, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0;
        for (size_t i = 0; i < nfds; ++i) ::close(fds[i]);
        if (pipe_fds[1] >= 0) ::close(pipe_fds[1]);
        if (!ok) break;  // cut off, or the socket is full
        ++sent;
        descriptors += nfds;
        src.on_readable(epoll_fd, now, sink);
        if (kind & 4) src.poll(now, sink);
    }
    src.poll(now, sink);
    ::close(client);
    src.on_readable(epoll_fd, now, sink);
    src.poll(now, sink);

    // The client is gone, by its leaving or by being cut off, and nothing of it is held.
    FUZZ_CHECK(src.clients() == 0);
    const probe::ProbeStats& after = src.stats();
    FUZZ_CHECK(after.accepted == before.accepted + 1);
    FUZZ_CHECK(after.disconnected + after.cut_off == before.disconnected + before.cut_off + 1);
    FUZZ_CHECK(after.bad_messages - before.bad_messages <= sent);
    FUZZ_CHECK(after.rings - before.rings <= descriptors);
    FUZZ_CHECK(after.doorbells - before.doorbells <= sent);
    size_t records = 0;
    for (const auto& obs : sink.observations) {
        FUZZ_CHECK(obs.source == "probe");
        FUZZ_CHECK(obs.time <= now);
        if (const auto* ev = std::get_if<MrEvent>(&obs.body)) {
            ++records;
            FUZZ_CHECK(ev->owner.pid == static_cast<uint32_t>(getpid()));
        }
    }
    FUZZ_CHECK(records == after.records - before.records);
    return 0;
}
