// The producer side of the probe. Slow paths (connect, a thread's first report, device names,
// the doorbell) take a mutex and make system calls; the per-report path only writes into the
// calling thread's ring and publishes it with one release store. A failed report also reads the
// doorbell flag (one relaxed load), and rings the doorbell when the collector armed it.

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "collector/probe/include/rdmadiag_probe.h"
#include "collector/probe/include/rdmadiag_probe_layout.h"

static_assert(sizeof(rdmadiag_probe_record) == 32, "record layout");
static_assert(sizeof(rdmadiag_probe_ring_header) == RDMADIAG_RING_HEADER_SIZE, "header layout");

namespace {

constexpr uint32_t kCapacity = 4096;
constexpr size_t kRingBytes = RDMADIAG_RING_HEADER_SIZE + kCapacity * sizeof(rdmadiag_probe_record);

struct Global {
    std::mutex mu;
    int sock = -1;
    char devices[RDMADIAG_MAX_DEVICES][RDMADIAG_DEVICE_NAME_MAX] = {};
};

// Bumps on init/shutdown so threads re-attach; read on every report, so not behind global().
uint64_t g_generation = 1;
inline uint64_t generation() {
    return __atomic_load_n(&g_generation, __ATOMIC_RELAXED);
}

Global& global() {
    static Global* g = new Global;  // never destroyed: threads may report during exit
    return *g;
}

struct ThreadRing {
    rdmadiag_probe_ring_header* hdr = nullptr;
    rdmadiag_probe_record* records = nullptr;
    uint64_t head = 0;
    // The head at which the collector's tail is read again: where the ring is half full, or full,
    // as last known. One compare per report, however stale.
    uint64_t look_at = kCapacity / 2;
    uint64_t generation = 0;
    bool unavailable = false;  // attach failed for this generation: do not retry per report
    uint64_t dropped_unattached = 0;
};

__attribute__((tls_model("initial-exec"))) thread_local ThreadRing t_ring;
pthread_key_t g_exit_key;
pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

inline uint64_t stamp() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
#endif
}

constexpr uint32_t clock_kind() {
#if defined(__x86_64__) || defined(__i386__)
    return RDMADIAG_CLOCK_TSC;
#else
    return RDMADIAG_CLOCK_MONOTONIC;
#endif
}

void on_thread_exit(void* p) {
    auto* hdr = static_cast<rdmadiag_probe_ring_header*>(p);
    __atomic_store_n(&hdr->closed, 1u, __ATOMIC_RELEASE);
    munmap(hdr, kRingBytes);
}

void make_key() {
    pthread_key_create(&g_exit_key, on_thread_exit);
}

bool send_msg(int sock, const rdmadiag_probe_msg& m, int fd) {
    iovec iov{const_cast<rdmadiag_probe_msg*>(&m), sizeof m};
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        mh.msg_control = cbuf;
        mh.msg_controllen = sizeof cbuf;
        cmsghdr* c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return sendmsg(sock, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) == static_cast<ssize_t>(sizeof m);
}

// Creates this thread's ring and hands it to the collector. Called on a thread's first report.
rdmadiag_probe_ring_header* attach() {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mu);
    ThreadRing& t = t_ring;
    if (t.generation == generation() && t.hdr) return t.hdr;
    t.generation = generation();
    t.unavailable = true;
    pthread_once(&g_key_once, make_key);
    if (t.hdr) {  // the ring of an earlier connection: the collector forgot it
        on_thread_exit(t.hdr);
        pthread_setspecific(g_exit_key, nullptr);
        t.hdr = nullptr;
        t.records = nullptr;
    }
    if (g.sock < 0) return nullptr;
    int fd = static_cast<int>(
        syscall(SYS_memfd_create, "rdmadiag-probe-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (fd < 0) return nullptr;
    void* mem = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(kRingBytes)) == 0 &&
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0) {
        mem = mmap(nullptr, kRingBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (mem == MAP_FAILED) {
        close(fd);
        return nullptr;
    }
    auto* hdr = static_cast<rdmadiag_probe_ring_header*>(mem);
    hdr->magic = RDMADIAG_PROBE_MAGIC;
    hdr->version = RDMADIAG_PROBE_VERSION;
    hdr->record_size = sizeof(rdmadiag_probe_record);
    hdr->capacity = kCapacity;
    hdr->clock = clock_kind();
    hdr->tid = static_cast<uint32_t>(syscall(SYS_gettid));
    rdmadiag_probe_msg m{};
    m.magic = RDMADIAG_PROBE_MAGIC;
    m.version = RDMADIAG_PROBE_VERSION;
    m.type = RDMADIAG_MSG_RING;
    m.arg = static_cast<uint32_t>(kRingBytes);
    const bool sent = send_msg(g.sock, m, fd);
    close(fd);
    if (!sent) {
        munmap(mem, kRingBytes);
        return nullptr;
    }
    t.hdr = hdr;
    t.records = reinterpret_cast<rdmadiag_probe_record*>(static_cast<char*>(mem) +
                                                         RDMADIAG_RING_HEADER_SIZE);
    t.head = 0;
    t.look_at = kCapacity / 2;
    t.unavailable = false;
    pthread_setspecific(g_exit_key, hdr);
    return hdr;
}

// Asks the collector to drain now: one message on the probe socket. The collector armed the
// doorbell after its last drain; disarming it first makes this at most once per drain.
__attribute__((noinline, cold)) void ring_doorbell(ThreadRing& t) {
    __atomic_store_n(&t.hdr->armed, 0u, __ATOMIC_RELAXED);
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mu);
    if (g.sock < 0 || t.generation != generation()) return;
    rdmadiag_probe_msg m{};
    m.magic = RDMADIAG_PROBE_MAGIC;
    m.version = RDMADIAG_PROBE_VERSION;
    m.type = RDMADIAG_MSG_DOORBELL;
    send_msg(g.sock, m, -1);  // a full socket buffer already has the collector awake
}

inline void ring_if_armed(ThreadRing& t) {
    if (__builtin_expect(__atomic_load_n(&t.hdr->armed, __ATOMIC_RELAXED) != 0, 0))
        ring_doorbell(t);
}

// Reads the collector's tail again once the head reached `look_at`. The ring half full rings the
// doorbell, so a burst is drained before it fills the ring; false when it is full (the report is
// dropped and counted).
__attribute__((noinline)) bool look_at_room(ThreadRing& t, uint64_t h) {
    const uint64_t tail = __atomic_load_n(&t.hdr->tail, __ATOMIC_ACQUIRE);
    const uint64_t fill = h - tail;
    if (fill >= kCapacity) {
        t.look_at = tail + kCapacity;
        __atomic_store_n(&t.hdr->dropped, t.hdr->dropped + 1, __ATOMIC_RELAXED);
        return false;
    }
    if (fill >= kCapacity / 2) {
        ring_if_armed(t);
        t.look_at = tail + kCapacity;
    } else {
        t.look_at = tail + kCapacity / 2;
    }
    return true;
}

// `urgent`: the report should not wait for the collector's slow timer (a failure).
inline void push(uint8_t kind, int device, uint8_t op, uint32_t status, uint32_t lkey,
                 uint32_t rkey, int32_t rc, bool urgent) {
    ThreadRing& t = t_ring;
    if (__builtin_expect(t.hdr == nullptr || t.generation != generation(), 0)) {
        if ((t.unavailable && t.generation == generation()) || !attach()) {
            ++t.dropped_unattached;
            return;
        }
    }
    const uint64_t h = t.head;
    if (__builtin_expect(h >= t.look_at, 0)) {
        if (!look_at_room(t, h)) return;
    }
    rdmadiag_probe_record& r = t.records[h & (kCapacity - 1)];
    r.seq = static_cast<uint32_t>(h);
    r.kind = kind;
    r.op = op;
    r.status = static_cast<uint8_t>(status > 255 ? 255 : status);
    r.device = static_cast<uint8_t>(device < 0 ? 255 : device);
    r.lkey = lkey;
    r.rkey = rkey;
    r.rc = rc;
    r.stamp = stamp();
    r.check = rdmadiag_record_check(&r);
    t.head = h + 1;
    __atomic_store_n(&t.hdr->head, h + 1, __ATOMIC_RELEASE);
    if (urgent) ring_if_armed(t);
}

}  // namespace

extern "C" {

int rdmadiag_probe_init(const char* socket_path) {
    const char* path = socket_path;
    if (!path) path = std::getenv("RDMADIAG_PROBE_SOCKET");
    if (!path) path = RDMADIAG_PROBE_DEFAULT_SOCKET;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (std::strlen(path) >= sizeof addr.sun_path) return -ENAMETOOLONG;
    std::strcpy(addr.sun_path, path);
    int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (s < 0) return -errno;
    if (connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        int e = errno;
        close(s);
        return -e;
    }
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mu);
    if (g.sock >= 0) close(g.sock);
    g.sock = s;
    __atomic_store_n(&g_generation, generation() + 1, __ATOMIC_RELAXED);
    for (auto& d : g.devices) d[0] = '\0';
    return 0;
}

void rdmadiag_probe_shutdown(void) {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mu);
    if (g.sock >= 0) close(g.sock);
    g.sock = -1;
    __atomic_store_n(&g_generation, generation() + 1, __ATOMIC_RELAXED);
}

int rdmadiag_probe_device(const char* name) {
    if (!name) return -1;
    size_t len = std::strlen(name);
    if (len == 0 || len >= RDMADIAG_DEVICE_NAME_MAX) return -1;
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.mu);
    int free_slot = -1;
    for (unsigned i = 0; i < RDMADIAG_MAX_DEVICES; ++i) {
        if (std::strcmp(g.devices[i], name) == 0) return static_cast<int>(i);
        if (free_slot < 0 && g.devices[i][0] == '\0') free_slot = static_cast<int>(i);
    }
    if (free_slot < 0) return -1;
    std::memcpy(g.devices[free_slot], name, len + 1);
    if (g.sock >= 0) {
        rdmadiag_probe_msg m{};
        m.magic = RDMADIAG_PROBE_MAGIC;
        m.version = RDMADIAG_PROBE_VERSION;
        m.type = RDMADIAG_MSG_DEVICE;
        m.arg = static_cast<uint32_t>(free_slot);
        std::memcpy(m.name, name, len + 1);
        send_msg(g.sock, m, -1);
    }
    return free_slot;
}

void rdmadiag_probe_mr_reg(int device, uint32_t lkey, uint32_t rkey, int rc) {
    push(RDMADIAG_REC_REG, device, 0, 0, lkey, rkey, rc, rc != 0);
}

void rdmadiag_probe_mr_dereg(int device, uint32_t lkey, int rc) {
    push(RDMADIAG_REC_DEREG, device, 0, 0, lkey, 0, rc, rc != 0);
}

void rdmadiag_probe_post(int device, enum rdmadiag_op op, uint32_t lkey) {
    push(RDMADIAG_REC_POST, device, static_cast<uint8_t>(op), 0, lkey, 0, 0, false);
}

void rdmadiag_probe_report_wc(int device, enum rdmadiag_op op, uint32_t status, uint32_t lkey) {
    push(RDMADIAG_REC_COMPLETION, device, static_cast<uint8_t>(op), status, lkey, 0, 0,
         status != 0);
}

uint64_t rdmadiag_probe_dropped(void) {
    uint64_t n = t_ring.dropped_unattached;
    if (t_ring.hdr) n += __atomic_load_n(&t_ring.hdr->dropped, __ATOMIC_RELAXED);
    return n;
}

}  // extern "C"
