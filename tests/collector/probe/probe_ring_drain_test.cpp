#include "collector/probe/probe_ring_drain.hpp"

#include <gtest/gtest.h>

#include "tests/collector/probe/test_ring.hpp"

namespace rdmadiag::probe {
namespace {

rdmadiag_probe_record record(uint8_t kind, uint8_t op, uint8_t status, uint8_t device) {
    rdmadiag_probe_record r{};
    r.kind = kind;
    r.op = op;
    r.status = status;
    r.device = device;
    r.lkey = 0x1234;
    r.rc = -22;
    return r;
}

const std::map<uint8_t, std::string> kDevices{{0, "rxe0"}};
const MrOwner kOwner{77, "app"};

TEST(ProbeRecordEvent, EachRecordKindTellsItsOperation) {
    auto reg = mr_event_of(record(RDMADIAG_REC_REG, 0, 0, 0), kDevices, kOwner);
    ASSERT_TRUE(reg && reg->has_value());
    const MrEvent& r = **reg;
    EXPECT_EQ(r.device, "rxe0");
    EXPECT_EQ(r.mr, 0x1234u);
    EXPECT_EQ(r.key, 0x1234u);
    EXPECT_EQ(r.owner, kOwner);
    EXPECT_EQ(r.op, MrOp::reg);
    EXPECT_EQ(r.rc, -22);

    auto dereg = mr_event_of(record(RDMADIAG_REC_DEREG, 0, 0, 0), kDevices, kOwner);
    EXPECT_EQ((**dereg).op, MrOp::dereg);

    auto post = mr_event_of(record(RDMADIAG_REC_POST, 1, 0, 0), kDevices, kOwner);
    EXPECT_EQ((**post).op, MrOp::fastreg);
    EXPECT_TRUE((**post).posted);
    EXPECT_FALSE((**post).rc.has_value());

    auto completion = mr_event_of(record(RDMADIAG_REC_COMPLETION, 2, 5, 0), kDevices, kOwner);
    EXPECT_EQ((**completion).op, MrOp::local_inv);
    EXPECT_FALSE((**completion).posted);
    EXPECT_EQ((**completion).status, wc_status_from_code(5).value());
}

TEST(ProbeRecordEvent, AnOrdinaryCompletionIsNoEventAndAnUnknownDeviceIsInvalid) {
    auto ordinary = mr_event_of(record(RDMADIAG_REC_COMPLETION, 0, 5, 0), kDevices, kOwner);
    ASSERT_TRUE(ordinary);
    EXPECT_FALSE(ordinary->has_value());

    EXPECT_FALSE(mr_event_of(record(RDMADIAG_REC_REG, 0, 0, 3), kDevices, kOwner));
    auto no_device = mr_event_of(record(RDMADIAG_REC_REG, 0, 0, 255), kDevices, kOwner);
    ASSERT_TRUE(no_device && no_device->has_value());
    EXPECT_EQ((**no_device).device, "");
}

int64_t fixed_monotonic_ns() {
    return 1'000'000'000;
}
uint64_t fixed_tsc() {
    return 0;
}

class ProbeRingDrain : public ::testing::Test {
protected:
    ProbeRingDrain() : clocks(ProbeClocks{&fixed_monotonic_ns, &fixed_tsc}) {
        client.pid = 77;
        client.comm = "app";
        client.devices = kDevices;
    }
    void hand_over(test::TestRing& ring) {
        auto r = RingReader::map(ring.fd, 1 << 20);
        ASSERT_TRUE(r) << r.error().message;
        client.rings.push_back(std::move(r).value());
    }
    Result<void> drain() { return drain_probe_client(client, limits, clocks, now, sink, stats); }

    ProbeClient client;
    ProbeLimits limits;
    ProbeClockCalibration clocks;
    const TimePoint now{std::chrono::hours(1)};
    sources::VectorSink sink;
    ProbeStats stats;
};

TEST_F(ProbeRingDrain, RecordsBecomeEventsOfTheClientBoundedPerPoll) {
    test::TestRing a(8), b(8);
    hand_over(a);
    hand_over(b);
    for (uint32_t i = 0; i < 3; ++i) a.push(RDMADIAG_REC_REG, 0, 0, i);
    for (uint32_t i = 10; i < 13; ++i) b.push(RDMADIAG_REC_REG, 0, 0, i);
    limits.max_records_per_poll = 4;
    ASSERT_TRUE(drain());
    ASSERT_EQ(sink.observations.size(), 4u) << "the bound is per client, over all its rings";
    EXPECT_EQ(stats.throttled, 1u);
    EXPECT_EQ(stats.records, 4u);
    for (const auto& o : sink.observations) {
        EXPECT_EQ(o.source, "probe");
        // Stamped at 0 on CLOCK_MONOTONIC, which reads 1 s: a second before the poll.
        EXPECT_EQ(o.time, now - std::chrono::seconds(1));
        EXPECT_EQ(std::get<MrEvent>(o.body).owner, kOwner);
    }
    ASSERT_TRUE(drain());
    ASSERT_EQ(sink.observations.size(), 6u);
    EXPECT_EQ(std::get<MrEvent>(sink.observations.back().body).mr, 12u);
}

TEST_F(ProbeRingDrain, AnExitedThreadsRingGoesOnceEmptied) {
    test::TestRing ring(8);
    hand_over(ring);
    ring.push(RDMADIAG_REC_DEREG, 0, 0, 1);
    ring.hdr->closed = 1;
    ASSERT_TRUE(drain());
    EXPECT_EQ(sink.observations.size(), 1u);
    EXPECT_TRUE(client.rings.empty());
}

TEST_F(ProbeRingDrain, TooManyInvalidRecordsOrALyingRingCutTheClientOff) {
    test::TestRing ring(8);
    hand_over(ring);
    limits.max_invalid_records = 2;
    for (uint32_t i = 0; i < 3; ++i) ring.push(RDMADIAG_REC_REG, 0, 0, i, 9);  // unnamed device
    auto invalid = drain();
    ASSERT_FALSE(invalid);
    EXPECT_EQ(invalid.error().message, "3 invalid records");
    EXPECT_EQ(stats.invalid_records, 3u);

    ProbeClient liar;
    test::TestRing lying(8);
    lying.hdr->tid = 42;
    auto r = RingReader::map(lying.fd, 1 << 20);
    ASSERT_TRUE(r);
    liar.rings.push_back(std::move(r).value());
    lying.hdr->head = 100;
    auto lied = drain_probe_client(liar, limits, clocks, now, sink, stats);
    ASSERT_FALSE(lied);
    EXPECT_EQ(lied.error().message, "ring 42 claims more records than it holds");
}

}  // namespace
}  // namespace rdmadiag::probe
