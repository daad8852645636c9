#include "collector/engine/snapshot_revisions.hpp"

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"

namespace rdmadiag::engine {
namespace {

using namespace std::chrono_literals;

TimePoint at(Duration d) {
    return TimePoint{} + 1'700'000'000s + d;
}

Observation pkeys(TimePoint t, const std::string& device, std::vector<uint16_t> keys) {
    return Observation{t, "mad",
                       PKeyTableSample{{device, 1}, PKeyView::sma, {std::move(keys), {}}}};
}

Observation counter(TimePoint t, const std::string& device, uint64_t value) {
    return Observation{t, "mad",
                       CounterSample{{device, 1}, "port_xmit_data", value, 64, CounterKind::pma}};
}

TEST(SnapshotRevisions, OnlyDevicesWhoseStateChangedGetTheNewSequence) {
    auto engine = make_default_engine();
    for (const char* d : {"a", "b", "c"}) {
        engine->consume(pkeys(at(0s), d, {0xffff, 0x8001}));
        engine->consume(counter(at(0s), d, 10));
    }
    auto first = engine->snapshot();
    for (const auto& d : first->devices) EXPECT_EQ(d.revision, first->sequence);
    EXPECT_EQ(first->revisions.devices, first->sequence);

    // Every table read again unchanged and every counter moved: nothing a client must refetch.
    for (const char* d : {"a", "b", "c"}) {
        engine->consume(pkeys(at(10s), d, {0xffff, 0x8001}));
        engine->consume(counter(at(10s), d, 20));
    }
    // b's table changes.
    engine->consume(pkeys(at(11s), "b", {0xffff, 0x8002}));
    auto second = engine->snapshot();
    ASSERT_EQ(second->devices.size(), 3u);
    EXPECT_EQ(second->devices[0].revision, first->sequence);
    EXPECT_EQ(second->devices[1].revision, second->sequence);
    EXPECT_EQ(second->devices[2].revision, first->sequence);
    EXPECT_EQ(second->revisions.devices, first->sequence) << "the same devices";
    EXPECT_EQ(second->revisions.pkey_changes, second->sequence);

    engine->consume(pkeys(at(20s), "d", {0xffff}));
    auto third = engine->snapshot();
    EXPECT_EQ(third->revisions.devices, third->sequence) << "a device appeared";
    EXPECT_EQ(third->devices[1].revision, second->sequence);
    EXPECT_EQ(third->devices[3].revision, third->sequence);
}

TEST(SnapshotRevisions, ReadTimesAndCountersAreNotState) {
    auto engine = make_default_engine();
    engine->consume(pkeys(at(0s), "a", {0xffff}));
    engine->consume(counter(at(0s), "a", 1));
    Snapshot before = *engine->snapshot();
    engine->consume(pkeys(at(5s), "a", {0xffff}));
    engine->consume(counter(at(5s), "a", 2));
    Snapshot after = *engine->snapshot();
    EXPECT_NE(before.devices[0], after.devices[0]) << "times and counters did move";
    EXPECT_TRUE(same_device_state(before.devices[0], after.devices[0]));
    after.devices[0].ports[0].info.lid = 7;
    EXPECT_FALSE(same_device_state(before.devices[0], after.devices[0]));
}

TEST(SnapshotRevisions, TheFirstSnapshotIsAllNew) {
    Snapshot s;
    s.sequence = 4;
    s.devices.resize(2);
    assign_revisions(s, nullptr);
    EXPECT_EQ(s.devices[0].revision, 4u);
    EXPECT_EQ(s.revisions.findings, 4u);
}

}  // namespace
}  // namespace rdmadiag::engine
