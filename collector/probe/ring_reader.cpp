#include "collector/probe/ring_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rdmadiag::probe {

namespace {

rdmadiag_probe_ring_header* header(void* base) {
    return static_cast<rdmadiag_probe_ring_header*>(base);
}

}  // namespace

bool valid_probe_record(const rdmadiag_probe_record& r, uint64_t pos) {
    if (r.seq != static_cast<uint32_t>(pos)) return false;
    if (r.check != rdmadiag_record_check(&r)) return false;
    if (r.kind < RDMADIAG_REC_REG || r.kind > RDMADIAG_REC_COMPLETION) return false;
    if (r.op > 4) return false;
    if (r.status > 21) return false;
    if (r.device >= RDMADIAG_MAX_DEVICES && r.device != 255) return false;
    if ((r.kind == RDMADIAG_REC_REG || r.kind == RDMADIAG_REC_DEREG) &&
        (r.op != 0 || r.status != 0)) {
        return false;
    }
    if (r.kind == RDMADIAG_REC_POST && (r.op == 0 || r.status != 0)) return false;
    return true;
}

Result<RingReader> RingReader::map(int fd, size_t max_bytes) {
    struct stat st {};
    if (fstat(fd, &st) != 0)
        return make_error(std::string("fstat: ") + std::strerror(errno), errno);
    if (!S_ISREG(st.st_mode)) return make_error("ring is not a memory file");
    const int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0 || !(seals & F_SEAL_SHRINK))
        return make_error("ring is not sealed against shrinking");
    const auto size = static_cast<size_t>(st.st_size);
    if (size < RDMADIAG_RING_HEADER_SIZE + sizeof(rdmadiag_probe_record)) {
        return make_error("ring too small");
    }
    if (size > max_bytes) return make_error("ring larger than the per-ring limit");
    void* base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return make_error(std::string("mmap: ") + std::strerror(errno), errno);
    rdmadiag_probe_ring_header h;
    std::memcpy(&h, base, sizeof h);
    const uint64_t need = RDMADIAG_RING_HEADER_SIZE +
                          static_cast<uint64_t>(h.capacity) * sizeof(rdmadiag_probe_record);
    const char* why = nullptr;
    if (h.magic != RDMADIAG_PROBE_MAGIC)
        why = "bad ring magic";
    else if (h.version != RDMADIAG_PROBE_VERSION)
        why = "unsupported ring version";
    else if (h.record_size != sizeof(rdmadiag_probe_record))
        why = "bad record size";
    else if (h.capacity == 0 || (h.capacity & (h.capacity - 1)) != 0)
        why = "capacity not a power of two";
    else if (need > size)
        why = "capacity larger than the ring";
    else if (h.clock != RDMADIAG_CLOCK_TSC && h.clock != RDMADIAG_CLOCK_MONOTONIC)
        why = "unknown clock";
    if (why) {
        munmap(base, size);
        return make_error(why);
    }
    RingReader r(base, size, h.capacity, h.clock, h.tid);
    r.tail_ = __atomic_load_n(&header(base)->tail, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&header(base)->head, __ATOMIC_ACQUIRE) - r.tail_ > h.capacity) {
        return make_error("ring handed over with more records than it holds", EBADMSG);
    }
    return r;
}

RingReader::RingReader(void* base, size_t bytes, uint32_t capacity, uint32_t clock, uint32_t tid)
    : base_(base), bytes_(bytes), capacity_(capacity), clock_(clock), tid_(tid) {}

RingReader::RingReader(RingReader&& o) noexcept
    : base_(o.base_),
      bytes_(o.bytes_),
      capacity_(o.capacity_),
      clock_(o.clock_),
      tid_(o.tid_),
      tail_(o.tail_) {
    o.base_ = nullptr;
}

RingReader& RingReader::operator=(RingReader&& o) noexcept {
    if (this != &o) {
        if (base_) munmap(base_, bytes_);
        base_ = o.base_;
        bytes_ = o.bytes_;
        capacity_ = o.capacity_;
        clock_ = o.clock_;
        tid_ = o.tid_;
        tail_ = o.tail_;
        o.base_ = nullptr;
    }
    return *this;
}

RingReader::~RingReader() {
    if (base_) munmap(base_, bytes_);
}

uint64_t RingReader::producer_dropped() const {
    return __atomic_load_n(&header(base_)->dropped, __ATOMIC_RELAXED);
}

void RingReader::arm() {
    // Sequentially consistent, as the drain's read of the head: the flag is visible before the
    // head is read, so a record the drain misses finds it set; unless the producer read the flag
    // while its own head store was still in flight (its path has no fence, to stay cheap): that
    // record waits for the next poll, a second at most.
    __atomic_store_n(&header(base_)->armed, 1u, __ATOMIC_SEQ_CST);
}

RingDrain RingReader::drain(size_t max,
                            const std::function<void(const rdmadiag_probe_record&)>& on_record) {
    RingDrain d;
    auto* h = header(base_);
    d.closed = __atomic_load_n(&h->closed, __ATOMIC_ACQUIRE) != 0;
    const uint64_t head = __atomic_load_n(&h->head, __ATOMIC_SEQ_CST);  // see arm()
    if (head < tail_ || head - tail_ > capacity_) {
        d.corrupt = true;
        return d;
    }
    const auto* records = reinterpret_cast<const rdmadiag_probe_record*>(
        static_cast<const char*>(base_) + RDMADIAG_RING_HEADER_SIZE);
    uint64_t pos = tail_;
    for (; pos < head && d.valid < max; ++pos) {
        rdmadiag_probe_record r;
        std::memcpy(&r, &records[pos & (capacity_ - 1)], sizeof r);
        if (valid_probe_record(r, pos)) {
            ++d.valid;
            on_record(r);
        } else {
            ++d.invalid;
        }
    }
    d.more = pos < head;
    tail_ = pos;
    __atomic_store_n(&h->tail, tail_, __ATOMIC_RELEASE);
    return d;
}

}  // namespace rdmadiag::probe
