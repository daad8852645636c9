#include "gui/models/snapshot_delta.hpp"

#include <gtest/gtest.h>

#include "tests/gui/fat_tree_snapshot.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

DeviceSnapshot without_counters(DeviceSnapshot d) {
    for (auto& p : d.ports) p.counters.clear();
    return d;
}

TEST(SnapshotDelta, ReplacesChangedDevicesKeepsTheirCountersAndTheRest) {
    Snapshot state = testing::trouble_snapshot();
    const Snapshot before = state;
    SnapshotDelta delta;
    delta.sequence = before.sequence + 5;
    delta.time = before.time + std::chrono::seconds(5);
    DeviceSnapshot mlx = without_counters(before.devices[1]);
    mlx.ports[0].info.state = PortState::down;
    delta.devices.push_back(mlx);
    const DeltaEffect effect = apply_delta(state, delta);
    EXPECT_FALSE(effect.reshaped);
    EXPECT_EQ(effect.changed_devices, std::vector<std::string>{"mlx5_0"});
    EXPECT_TRUE(effect.touches("mlx5_0"));
    EXPECT_FALSE(effect.touches("cxgb4_0"));
    EXPECT_FALSE(effect.findings_changed);
    EXPECT_EQ(state.sequence, delta.sequence);
    EXPECT_EQ(state.time, delta.time);
    EXPECT_EQ(state.devices[1].ports[0].info.state, PortState::down);
    // The feed carries no counters: the ones the client had stay.
    EXPECT_EQ(state.devices[1].ports[0].counters, before.devices[1].ports[0].counters);
    EXPECT_FALSE(state.devices[1].ports[0].counters.empty());
    EXPECT_EQ(state.devices[0], before.devices[0]);
    EXPECT_EQ(state.findings, before.findings);
    EXPECT_EQ(state.mrs, before.mrs);
}

TEST(SnapshotDelta, SectionsPresentReplaceAbsentStay) {
    Snapshot state = testing::trouble_snapshot();
    const Snapshot before = state;
    SnapshotDelta delta;
    delta.sequence = before.sequence + 1;
    delta.findings.emplace();  // every finding cleared
    delta.events = std::vector<EventRecord>{};
    const DeltaEffect effect = apply_delta(state, delta);
    EXPECT_TRUE(effect.findings_changed);
    EXPECT_TRUE(effect.events_changed);
    EXPECT_FALSE(effect.mrs_changed);
    EXPECT_TRUE(state.findings.empty());
    EXPECT_TRUE(state.events.empty());
    EXPECT_EQ(state.mrs, before.mrs);
    EXPECT_EQ(state.finding_history, before.finding_history);
}

TEST(SnapshotDelta, DeviceNamesDropDevicesNewOnesAreInsertedInOrder) {
    Snapshot state = testing::fat_tree_snapshot({2, 1, 2, 1});
    const size_t n = state.devices.size();
    SnapshotDelta delta;
    delta.sequence = 9;
    delta.device_names.emplace();
    for (const auto& d : state.devices) delta.device_names->push_back(d.info.device);
    const std::string gone = delta.device_names->front();
    delta.device_names->erase(delta.device_names->begin());
    DeviceSnapshot added = state.devices.back();
    added.info.device = "guid:0x0c42a10300000099";
    for (auto& p : added.ports) p.ref.device = added.info.device;
    delta.device_names->push_back(added.info.device);
    delta.devices.push_back(added);
    const DeltaEffect effect = apply_delta(state, delta);
    EXPECT_TRUE(effect.reshaped);
    EXPECT_EQ(effect.removed_devices, std::vector<std::string>{gone});
    EXPECT_EQ(state.devices.size(), n);
    EXPECT_EQ(state.find_device(gone), nullptr);
    ASSERT_NE(state.find_device(added.info.device), nullptr);
    EXPECT_TRUE(
        std::is_sorted(state.devices.begin(), state.devices.end(),
                       [](const auto& a, const auto& b) { return a.info.device < b.info.device; }));
}

TEST(SnapshotDelta, AFullDeltaReplacesEverything) {
    Snapshot state = testing::trouble_snapshot();
    SnapshotDelta delta;
    delta.full = true;
    delta.sequence = 3;
    delta.devices.push_back(without_counters(state.devices[0]));
    delta.findings.emplace();
    delta.finding_history.emplace();
    delta.events.emplace();
    delta.mrs.emplace();
    const DeltaEffect effect = apply_delta(state, delta);
    EXPECT_TRUE(effect.reshaped);
    ASSERT_EQ(state.devices.size(), 1u);
    EXPECT_EQ(state.devices[0].info.device, "cxgb4_0");
    EXPECT_TRUE(state.findings.empty());
    EXPECT_TRUE(state.mrs.mrs.empty());
}

}  // namespace
}  // namespace rdmadiag::gui::models
