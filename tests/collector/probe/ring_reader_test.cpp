#include "collector/probe/ring_reader.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tests/collector/probe/test_ring.hpp"

namespace rdmadiag::probe {
namespace {

using test::TestRing;

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

TEST(RingReader, ArmingSetsTheDoorbellFlagTheProducerClears) {
    TestRing t(8);
    auto r = RingReader::map(t.fd, 1 << 20);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(t.hdr->armed, 0u);  // a ring is not armed until the collector says so
    r->arm();
    EXPECT_EQ(t.hdr->armed, 1u);
    t.hdr->armed = 0;  // the producer rang
    t.push(RDMADIAG_REC_COMPLETION, 2, 5, 1);
    EXPECT_EQ(drain_keys(*r, 100), (std::vector<uint32_t>{1}));
    EXPECT_EQ(t.hdr->armed, 0u);  // a drain alone does not arm
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
