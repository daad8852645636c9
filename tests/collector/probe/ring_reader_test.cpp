#include "collector/probe/ring_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace rdmadiag::probe {
namespace {

// An in-process ring: the test plays the producer.
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
    void push(uint8_t kind, uint8_t op, uint8_t status, uint32_t lkey) {
        uint64_t h = hdr->head;
        rdmadiag_probe_record& r = recs[h & (hdr->capacity - 1)];
        r = rdmadiag_probe_record{};
        r.seq = static_cast<uint32_t>(h);
        r.kind = kind;
        r.op = op;
        r.status = status;
        r.device = 0;
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

std::vector<uint32_t> drain_keys(RingReader& r, size_t max, RingDrain* out = nullptr) {
    std::vector<uint32_t> keys;
    RingDrain d = r.drain(max, [&](const rdmadiag_probe_record& rec) { keys.push_back(rec.lkey); });
    if (out) *out = d;
    return keys;
}

TEST(RingReader, ReadsPublishedRecordsInOrderAndPublishesItsTail) {
    TestRing t(8);
    auto r = RingReader::map(t.fd, 1 << 20);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (uint32_t i = 0; i < 5; ++i) t.push(RDMADIAG_REC_COMPLETION, 2, 5, i);
    EXPECT_EQ(drain_keys(*r, 100), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(t.hdr->tail, 5u);
    for (uint32_t i = 5; i < 12; ++i) t.push(RDMADIAG_REC_COMPLETION, 2, 5, i);  // wraps
    RingDrain d;
    EXPECT_EQ(drain_keys(*r, 3, &d), (std::vector<uint32_t>{5, 6, 7}));
    EXPECT_TRUE(d.more);
    EXPECT_EQ(drain_keys(*r, 100), (std::vector<uint32_t>{8, 9, 10, 11}));
}

TEST(RingReader, SkipsScribbledAndStaleSlots) {
    TestRing t(8);
    auto r = RingReader::map(t.fd, 1 << 20);
    ASSERT_TRUE(r.ok());
    t.push(RDMADIAG_REC_COMPLETION, 2, 5, 1);
    t.push(RDMADIAG_REC_COMPLETION, 2, 5, 2);
    t.recs[1].lkey ^= 0x40;  // the check no longer matches
    RingDrain d;
    EXPECT_EQ(drain_keys(*r, 100, &d), (std::vector<uint32_t>{1}));
    EXPECT_EQ(d.invalid, 1u);
    t.hdr->head += 1;  // published without writing: the slot still holds position 2's... nothing
    EXPECT_TRUE(drain_keys(*r, 100, &d).empty());
    EXPECT_EQ(d.invalid, 1u);
}

TEST(RingReader, HeadBehindOrTooFarAheadIsCorrupt) {
    TestRing t(8);
    auto r = RingReader::map(t.fd, 1 << 20);
    ASSERT_TRUE(r.ok());
    t.hdr->head = 100;
    RingDrain d;
    drain_keys(*r, 100, &d);
    EXPECT_TRUE(d.corrupt);
}

TEST(RingReader, RefusesBadRings) {
    {
        TestRing t(8, /*seal=*/false);
        auto r = RingReader::map(t.fd, 1 << 20);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("sealed"), std::string::npos);
    }
    {
        TestRing t(8);
        t.hdr->magic = 0;
        EXPECT_FALSE(RingReader::map(t.fd, 1 << 20).ok());
    }
    {
        TestRing t(8);
        t.hdr->capacity = 6;
        EXPECT_FALSE(RingReader::map(t.fd, 1 << 20).ok());
    }
    {
        TestRing t(8);
        t.hdr->capacity = 1 << 20;  // more than the file holds
        EXPECT_FALSE(RingReader::map(t.fd, 1 << 30).ok());
    }
    {
        TestRing t(1024);
        EXPECT_FALSE(RingReader::map(t.fd, 4096).ok());  // over the per-ring limit
    }
    EXPECT_FALSE(RingReader::map(0, 1 << 20).ok());  // not a memory file
}

TEST(RingReader, RecordValidation) {
    rdmadiag_probe_record r{};
    r.seq = 7;
    r.kind = RDMADIAG_REC_POST;
    r.op = 0;  // a post must name an MR operation
    r.check = rdmadiag_record_check(&r);
    EXPECT_FALSE(valid_probe_record(r, 7));
    r.op = 1;
    r.check = rdmadiag_record_check(&r);
    EXPECT_TRUE(valid_probe_record(r, 7));
    EXPECT_FALSE(valid_probe_record(r, 8));
    r.kind = 9;
    r.check = rdmadiag_record_check(&r);
    EXPECT_FALSE(valid_probe_record(r, 7));
}

}  // namespace
}  // namespace rdmadiag::probe
