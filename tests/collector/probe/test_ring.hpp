#pragma once
// A probe ring made in this process, the test playing its producer: a memfd the collector side
// maps, with the header a probe writes and records pushed as a probe pushes them.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "collector/probe/include/rdmadiag_probe_layout.h"

namespace rdmadiag::test {

struct TestRing {
    explicit TestRing(uint32_t capacity, bool seal = true, size_t extra = 0) {
        bytes = RDMADIAG_RING_HEADER_SIZE + capacity * sizeof(rdmadiag_probe_record) + extra;
        fd = static_cast<int>(syscall(SYS_memfd_create, "t", MFD_ALLOW_SEALING));
        EXPECT_EQ(ftruncate(fd, static_cast<off_t>(bytes)), 0);
        mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        hdr = static_cast<rdmadiag_probe_ring_header*>(mem);
        hdr->magic = RDMADIAG_PROBE_MAGIC;
        hdr->version = RDMADIAG_PROBE_VERSION;
        hdr->record_size = sizeof(rdmadiag_probe_record);
        hdr->capacity = capacity;
        hdr->clock = RDMADIAG_CLOCK_MONOTONIC;
        recs = reinterpret_cast<rdmadiag_probe_record*>(static_cast<char*>(mem) +
                                                        RDMADIAG_RING_HEADER_SIZE);
        if (seal) fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    }
    ~TestRing() {
        munmap(mem, bytes);
        close(fd);
    }
    void push(uint8_t kind, uint8_t op, uint8_t status, uint32_t lkey, uint8_t device = 0) {
        uint64_t h = hdr->head;
        rdmadiag_probe_record& r = recs[h & (hdr->capacity - 1)];
        r = rdmadiag_probe_record{};
        r.seq = static_cast<uint32_t>(h);
        r.kind = kind;
        r.op = op;
        r.status = status;
        r.device = device;
        r.lkey = lkey;
        r.check = rdmadiag_record_check(&r);
        hdr->head = h + 1;
    }
    size_t bytes;
    int fd;
    void* mem;
    rdmadiag_probe_ring_header* hdr;
    rdmadiag_probe_record* recs;
};

}  // namespace rdmadiag::test
