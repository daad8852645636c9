// A real producer process for the probe tests. Modes:
//   normal SOCKET            the xprtrdma-like story through the library, then exit
//   crash SOCKET N           N reports from two threads, then SIGKILL itself mid-stream
//   garbage SOCKET           connects without the library and sends malformed messages
//   scribble SOCKET          hands over a valid ring full of scribbled records
//   liar SOCKET              hands over a ring whose head claims far more than it holds
//   unsealed SOCKET          hands over a ring that could be shrunk under the collector
//   rings SOCKET N           hands over N rings (more than a client may have)
//   flood SOCKET N           N completion reports as fast as possible from two threads
//   impostor SOCKET PID      claims to be PID every way it can (credentials sent along with its
//                            messages, the ring's thread id) and reports one registration
//   doorbell SOCKET          in steps, each after a line on stdin and announced on stdout once
//                            its reports are written: "ordinary" (a registration, a FASTREG and
//                            its successful completion), "quiet" (a LOCAL_INV and its successful
//                            completion), "urgent" (a flushed LOCAL_INV completion), "burst"
//                            (3000 posts: more than half a ring), then deregisters and exits
// Prints "ready" after connecting and waits for a line on stdin before exiting when asked to
// ("hold" as a last argument), so tests can look at a live client.

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include "collector/probe/include/rdmadiag_probe.h"
#include "collector/probe/include/rdmadiag_probe_layout.h"
#include "tests/collector/probe/seqpacket_send.hpp"

namespace {

int raw_connect(const char* path) {
    int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path, sizeof a.sun_path - 1);
    if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        std::perror("connect");
        std::exit(2);
    }
    return s;
}

void send_with_fd(int s, const void* data, size_t len, int fd) {
    if (!rdmadiag::test::send_with_fd(s, data, len, fd)) std::perror("sendmsg");
}

rdmadiag_probe_ring_header* g_last_ring = nullptr;

// A ring built by hand: `records` filled by `fill`, head set to `head`.
template <class F>
int make_ring(uint32_t capacity, bool seal, uint64_t head, F&& fill) {
    const size_t bytes = RDMADIAG_RING_HEADER_SIZE + capacity * sizeof(rdmadiag_probe_record);
    int fd = static_cast<int>(syscall(SYS_memfd_create, "ring", MFD_ALLOW_SEALING));
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) std::exit(3);
    void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    auto* h = static_cast<rdmadiag_probe_ring_header*>(mem);
    h->magic = RDMADIAG_PROBE_MAGIC;
    h->version = RDMADIAG_PROBE_VERSION;
    h->record_size = sizeof(rdmadiag_probe_record);
    h->capacity = capacity;
    h->clock = RDMADIAG_CLOCK_MONOTONIC;
    auto* recs = reinterpret_cast<rdmadiag_probe_record*>(static_cast<char*>(mem) +
                                                          RDMADIAG_RING_HEADER_SIZE);
    fill(recs);
    h->head = head;
    g_last_ring = h;
    if (seal) fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
    return fd;
}

rdmadiag_probe_msg ring_msg(uint32_t bytes) {
    rdmadiag_probe_msg m{};
    m.magic = RDMADIAG_PROBE_MAGIC;
    m.version = RDMADIAG_PROBE_VERSION;
    m.type = RDMADIAG_MSG_RING;
    m.arg = bytes;
    return m;
}

void ready_and_hold(bool hold) {
    std::cout << "ready" << std::endl;
    if (hold) {
        std::string line;
        std::getline(std::cin, line);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return 64;
    const std::string mode = argv[1];
    const char* sock = argv[2];
    const long n = argc > 3 ? std::atol(argv[3]) : 0;
    const bool hold = std::string(argv[argc - 1]) == "hold";

    if (mode == "normal") {
        if (rdmadiag_probe_init(sock) != 0) return 2;
        int dev = rdmadiag_probe_device("rxe0");
        rdmadiag_probe_mr_reg(dev, 0x1234, 0x1234, 0);
        for (int i = 0; i < 100000; ++i) rdmadiag_probe_wc(dev, RDMADIAG_OP_OTHER, 0, 0x1234);
        rdmadiag_probe_post(dev, RDMADIAG_OP_LOCAL_INV, 0x1234);
        rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5, 0x1234);
        rdmadiag_probe_post(dev, RDMADIAG_OP_FASTREG, 0x1234);
        rdmadiag_probe_wc(dev, RDMADIAG_OP_FASTREG, 6, 0x1234);
        ready_and_hold(hold);
        rdmadiag_probe_mr_dereg(dev, 0x1234, 0);
        return rdmadiag_probe_dropped() == 0 ? 0 : 5;
    }
    if (mode == "crash") {
        if (rdmadiag_probe_init(sock) != 0) return 2;
        int dev = rdmadiag_probe_device("rxe0");
        std::thread other([&] {
            for (uint32_t i = 0;; ++i) rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5, i);
        });
        for (long i = 0; i < n; ++i) {
            rdmadiag_probe_wc(dev, RDMADIAG_OP_FASTREG, 6, static_cast<uint32_t>(i));
        }
        std::cout << "ready" << std::endl;
        kill(getpid(), SIGKILL);
        other.join();
        return 0;
    }
    if (mode == "garbage") {
        int s = raw_connect(sock);
        ready_and_hold(false);
        char junk[100];
        for (size_t i = 0; i < sizeof junk; ++i) junk[i] = static_cast<char>(i * 37 + 11);
        for (int i = 0; i < 10; ++i)
            send_with_fd(s, junk, sizeof junk - static_cast<size_t>(i), -1);
        rdmadiag_probe_msg bad_dev{};
        bad_dev.magic = RDMADIAG_PROBE_MAGIC;
        bad_dev.version = RDMADIAG_PROBE_VERSION;
        bad_dev.type = RDMADIAG_MSG_DEVICE;
        bad_dev.arg = 200;
        std::memcpy(bad_dev.name, "../../etc", 10);
        send_with_fd(s, &bad_dev, sizeof bad_dev, -1);
        ready_and_hold(true);
        return 0;
    }
    if (mode == "scribble" || mode == "liar" || mode == "unsealed") {
        int s = raw_connect(sock);
        const uint32_t cap = 256;
        uint64_t head = mode == "liar" ? 0 : 200;
        int fd = make_ring(cap, mode != "unsealed", head, [](rdmadiag_probe_record* r) {
            for (uint32_t i = 0; i < 256; ++i) {
                std::memset(&r[i], static_cast<int>(i * 13 + 1), sizeof r[i]);
            }
        });
        rdmadiag_probe_msg m = ring_msg(RDMADIAG_RING_HEADER_SIZE + cap * 32);
        send_with_fd(s, &m, sizeof m, fd);
        // The liar hands over an honest ring, then claims far more than it holds.
        if (mode == "liar") __atomic_store_n(&g_last_ring->head, 100000, __ATOMIC_RELEASE);
        ready_and_hold(hold);
        return 0;
    }
    if (mode == "rings") {
        int s = raw_connect(sock);
        for (long i = 0; i < n; ++i) {
            int fd = make_ring(16, true, 0, [](rdmadiag_probe_record*) {});
            rdmadiag_probe_msg m = ring_msg(RDMADIAG_RING_HEADER_SIZE + 16 * 32);
            send_with_fd(s, &m, sizeof m, fd);
            close(fd);
        }
        ready_and_hold(hold);
        return 0;
    }
    if (mode == "impostor") {
        const auto claimed = static_cast<pid_t>(n);
        int s = raw_connect(sock);
        rdmadiag_probe_msg dev{};
        dev.magic = RDMADIAG_PROBE_MAGIC;
        dev.version = RDMADIAG_PROBE_VERSION;
        dev.type = RDMADIAG_MSG_DEVICE;
        dev.arg = 0;
        std::memcpy(dev.name, "rxe0", 5);
        int fd = make_ring(16, true, 1, [](rdmadiag_probe_record* r) {
            r[0].seq = 0;
            r[0].kind = RDMADIAG_REC_REG;
            r[0].device = 0;
            r[0].lkey = 0x77;
            r[0].rkey = 0x77;
            r[0].stamp = 0;
            r[0].check = rdmadiag_record_check(&r[0]);
        });
        g_last_ring->tid = static_cast<uint32_t>(claimed);
        rdmadiag_probe_msg ring = ring_msg(RDMADIAG_RING_HEADER_SIZE + 16 * 32);
        // Credentials naming another process ride along with both messages. Only a privileged
        // sender may name another pid at all; the collector must not care either way.
        for (auto* m : {&dev, &ring}) {
            iovec iov{m, sizeof *m};
            msghdr mh{};
            mh.msg_iov = &iov;
            mh.msg_iovlen = 1;
            alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof(ucred)) + CMSG_SPACE(sizeof(int))] = {};
            mh.msg_control = cbuf;
            mh.msg_controllen =
                CMSG_SPACE(sizeof(ucred)) + (m == &ring ? CMSG_SPACE(sizeof(int)) : 0);
            cmsghdr* c = CMSG_FIRSTHDR(&mh);
            ucred cred{claimed, getuid(), getgid()};
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_CREDENTIALS;
            c->cmsg_len = CMSG_LEN(sizeof cred);
            std::memcpy(CMSG_DATA(c), &cred, sizeof cred);
            if (m == &ring) {
                c = CMSG_NXTHDR(&mh, c);
                c->cmsg_level = SOL_SOCKET;
                c->cmsg_type = SCM_RIGHTS;
                c->cmsg_len = CMSG_LEN(sizeof(int));
                std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
            }
            if (sendmsg(s, &mh, MSG_NOSIGNAL) < 0) {
                // Unprivileged: the kernel refuses the forged credentials; send without them.
                send_with_fd(s, m, sizeof *m, m == &ring ? fd : -1);
                std::cout << "credentials refused" << std::endl;
            }
        }
        ready_and_hold(hold);
        return 0;
    }
    if (mode == "doorbell") {
        if (rdmadiag_probe_init(sock) != 0) return 2;
        auto step = [](const char* done) {
            std::cout << done << std::endl;
            std::string line;
            std::getline(std::cin, line);
        };
        int dev = rdmadiag_probe_device("rxe0");
        rdmadiag_probe_mr_reg(dev, 0x99, 0x99, 0);
        rdmadiag_probe_post(dev, RDMADIAG_OP_FASTREG, 0x99);
        rdmadiag_probe_wc(dev, RDMADIAG_OP_FASTREG, 0, 0x99);
        step("ordinary");
        rdmadiag_probe_post(dev, RDMADIAG_OP_LOCAL_INV, 0x99);
        rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 0, 0x99);
        step("quiet");
        rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5 /* WR_FLUSH_ERR */, 0x99);
        step("urgent");
        for (int i = 0; i < 3000; ++i) rdmadiag_probe_post(dev, RDMADIAG_OP_FASTREG, 0x99);
        step("burst");
        rdmadiag_probe_mr_dereg(dev, 0x99, 0);
        return rdmadiag_probe_dropped() == 0 ? 0 : 5;
    }
    if (mode == "flood") {
        if (rdmadiag_probe_init(sock) != 0) return 2;
        int dev = rdmadiag_probe_device("rxe0");
        auto work = [&] {
            for (long i = 0; i < n; ++i) {
                rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5, static_cast<uint32_t>(i & 1023));
            }
        };
        std::thread a(work), b(work);
        a.join();
        b.join();
        std::cout << "dropped " << rdmadiag_probe_dropped() << std::endl;
        ready_and_hold(hold);
        return 0;
    }
    return 64;
}
