// A probe ring as a client hands it over: the bytes of a sealed memfd that the client wrote and
// can keep writing. The collector maps it, checks the header once and drains records; between
// drains the client moves its head to whatever it likes (taken from the input's tail). Nothing
// may read outside the mapping, every record handed on must be one the probe could have
// written, and a drain never hands on more than the ring holds.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "collector/probe/ring_reader.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

constexpr size_t kMaxRingBytes = 1 << 16;
constexpr size_t kHeadOffset = offsetof(rdmadiag_probe_ring_header, head);
constexpr size_t kTailOffset = offsetof(rdmadiag_probe_ring_header, tail);

class MemFd {
public:
    explicit MemFd(const uint8_t* data, size_t size)
        : fd_(memfd_create("probe-ring-fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING)) {
        FUZZ_CHECK(fd_ >= 0);
        size_t done = 0;
        while (done < size) {
            ssize_t n = ::write(fd_, data + done, size - done);
            FUZZ_CHECK(n > 0);
            done += static_cast<size_t>(n);
        }
        FUZZ_CHECK(fcntl(fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0);
    }
    ~MemFd() { ::close(fd_); }
    MemFd(const MemFd&) = delete;
    MemFd& operator=(const MemFd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

uint64_t load_u64(int fd, size_t offset) {
    uint64_t v = 0;
    FUZZ_CHECK(pread(fd, &v, sizeof v, static_cast<off_t>(offset)) == sizeof v);
    return v;
}

void store_u64(int fd, size_t offset, uint64_t v) {
    FUZZ_CHECK(pwrite(fd, &v, sizeof v, static_cast<off_t>(offset)) == sizeof v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxRingBytes + 64) return -1;
    // The last 8 bytes past the ring (if any) are where the client moves its head after the
    // first drain; the ring itself is the rest.
    uint64_t later_head = 0;
    bool moves = false;
    size_t ring_size = size;
    if (size >= RDMADIAG_RING_HEADER_SIZE + sizeof(rdmadiag_probe_record) + 8 && (size % 32) == 8) {
        std::memcpy(&later_head, data + size - 8, 8);
        ring_size = size - 8;
        moves = true;
    }
    MemFd fd(data, ring_size);
    auto ring = probe::RingReader::map(fd.get(), kMaxRingBytes);
    if (!ring) return 0;
    FUZZ_CHECK(ring->bytes() == ring_size);

    rdmadiag_probe_ring_header h;
    std::memcpy(&h, data, sizeof h);
    FUZZ_CHECK(h.capacity > 0 && (h.capacity & (h.capacity - 1)) == 0);
    FUZZ_CHECK(RDMADIAG_RING_HEADER_SIZE + uint64_t{h.capacity} * sizeof(rdmadiag_probe_record) <=
               ring_size);
    FUZZ_CHECK(h.head - h.tail <= h.capacity);

    auto drain_all = [&](uint64_t from, uint64_t head) {
        size_t valid = 0;
        size_t invalid = 0;
        for (;;) {
            probe::RingDrain d = ring->drain(5, [&](const rdmadiag_probe_record& r) {
                FUZZ_CHECK(r.check == rdmadiag_record_check(&r));
                FUZZ_CHECK(r.kind >= RDMADIAG_REC_REG && r.kind <= RDMADIAG_REC_COMPLETION);
                FUZZ_CHECK(r.device < RDMADIAG_MAX_DEVICES || r.device == 255);
            });
            FUZZ_CHECK(d.valid <= 5);
            valid += d.valid;
            invalid += d.invalid;
            if (d.corrupt) {
                FUZZ_CHECK(d.valid == 0 && d.invalid == 0);
                FUZZ_CHECK(head < from || head - from > h.capacity);
                return;
            }
            if (!d.more) break;
        }
        // What was there was all looked at, once, and our position is published for the producer.
        FUZZ_CHECK(valid + invalid == head - from);
        FUZZ_CHECK(valid + invalid <= h.capacity);
        FUZZ_CHECK(load_u64(fd.get(), kTailOffset) == head);
    };
    drain_all(h.tail, h.head);
    if (moves) {
        uint64_t tail = load_u64(fd.get(), kTailOffset);
        store_u64(fd.get(), kHeadOffset, later_head);
        drain_all(tail, later_head);
    }
    return 0;
}
