#include "collector/engine/mr/mr_usage_tracker.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine::mr {
namespace {

using test::obs;

struct Holder {
    std::optional<uint32_t> pid;
    std::string comm;
    uint64_t mrs = 0;
    uint64_t bytes_each = 4096;
    bool gone = false;
};

// A complete listing of `device` holding what `holders` say, MR ids numbered from 1.
MrInventory listing(const char* device, const std::vector<Holder>& holders) {
    MrInventory inv;
    inv.device = device;
    uint64_t id = 1;
    for (const auto& h : holders) {
        for (uint64_t i = 0; i < h.mrs; ++i) {
            MrInventory::Entry e;
            e.mr = id++;
            e.pid = h.pid;
            e.comm = h.comm;
            e.length = h.bytes_each;
            e.owner_gone = h.gone;
            inv.mrs.push_back(e);
        }
    }
    return inv;
}

class MrUsageTrackerTest : public ::testing::Test {
protected:
    void SetUp() override { make(MrUsageSettings{}); }
    void make(MrUsageSettings s) {
        s.leak_window = std::chrono::seconds(80);
        s.leak_min_mrs = 40;
        engine = std::make_unique<Engine>();
        auto m = std::make_unique<MrUsageTracker>(s);
        tracker = m.get();
        engine->add_module(std::move(m));
    }
    void feed(double t, ObservationBody body) { engine->consume(obs(t, std::move(body))); }
    const Finding* leak(uint32_t pid) const {
        FindingSubject s;
        s.pid = pid;
        return engine->findings().find(kRuleMrLeakSuspected, s);
    }
    const Finding* device_finding(const char* rule, const char* device = "mlx5_0") const {
        FindingSubject s;
        s.device = device;
        return engine->findings().find(rule, s);
    }

    std::unique_ptr<Engine> engine;
    MrUsageTracker* tracker = nullptr;
};

TEST_F(MrUsageTrackerTest, CountsMrsAndBytesPerProcessAcrossDevices) {
    feed(0, listing("mlx5_0", {{1001, "trainer", 3, 1 << 20}, {std::nullopt, "xprtrdma", 2}}));
    feed(0, listing("mlx5_1", {{1001, "trainer", 2, 1 << 20}}));
    MrInventory host = listing("", {{1001, "trainer", 5}});  // repeats the per-device listings
    feed(0, host);
    auto snap = engine->snapshot();
    const MrUsage& u = snap->mrs.usage;
    ASSERT_EQ(u.processes.size(), 2u);
    EXPECT_EQ(u.processes[0].pid, 1001u);
    EXPECT_EQ(u.processes[0].comm, "trainer");
    EXPECT_EQ(u.processes[0].mrs, 5u);
    EXPECT_EQ(u.processes[0].bytes, 5u << 20);
    EXPECT_EQ(u.processes[0].devices, (std::vector<std::string>{"mlx5_0", "mlx5_1"}));
    EXPECT_FALSE(u.processes[1].pid);
    EXPECT_EQ(u.processes[1].comm, "xprtrdma");
    ASSERT_EQ(u.devices.size(), 2u);
    EXPECT_EQ(u.devices[0].mrs, 5u);
    EXPECT_EQ(u.devices[1].mrs, 2u);
    EXPECT_EQ(u.other_processes, 0u);
}

TEST_F(MrUsageTrackerTest, NamesTheTopProcessesAndFoldsTheRestIntoOther) {
    MrUsageSettings s;
    s.top_processes = 2;
    make(s);
    feed(0, listing("mlx5_0", {{1, "a", 1}, {2, "b", 5}, {3, "c", 3}, {4, "d", 2}}));
    auto snap = engine->snapshot();
    const MrUsage& u = snap->mrs.usage;
    ASSERT_EQ(u.processes.size(), 2u);
    EXPECT_EQ(u.processes[0].comm, "b");
    EXPECT_EQ(u.processes[1].comm, "c");
    EXPECT_EQ(u.other_processes, 2u);
    EXPECT_EQ(u.other_mrs, 3u);
    EXPECT_EQ(u.other_bytes, 3u * 4096);
}

TEST_F(MrUsageTrackerTest, SustainedGrowthOverTheWindowIsALeak) {
    // 10 more MRs every 10 s, for 90 s: rising in every quarter of the 80 s window.
    for (int i = 0; i <= 8; ++i) {
        feed(10.0 * i, listing("mlx5_0", {{77, "leaker", 10u + 10u * i}, {88, "steady", 50}}));
        if (i < 8) {
            EXPECT_EQ(leak(77), nullptr) << "followed for less than a window at " << i;
        }
    }
    const Finding* f = leak(77);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_NE(f->evidence.find("leaker (pid 77)"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("+80 MRs"), std::string::npos) << f->evidence;
    EXPECT_EQ(leak(88), nullptr);
    auto snap = engine->snapshot();
    EXPECT_TRUE(snap->mrs.usage.processes[0].leak_suspected);
    EXPECT_EQ(snap->mrs.usage.processes[0].mrs_growth, 80);
}

TEST_F(MrUsageTrackerTest, WarmUpThenFlatIsNotALeak) {
    // Registers its pool in the first 20 s, then holds it.
    const uint64_t counts[] = {0, 500, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    for (int i = 0; i <= 10; ++i) feed(10.0 * i, listing("mlx5_0", {{5, "server", counts[i]}}));
    EXPECT_EQ(leak(5), nullptr);
}

TEST_F(MrUsageTrackerTest, GrowthBelowTheThresholdIsNotALeak) {
    for (int i = 0; i <= 10; ++i) feed(10.0 * i, listing("mlx5_0", {{5, "slow", 10u + i}}));
    EXPECT_EQ(leak(5), nullptr);
}

TEST_F(MrUsageTrackerTest, ALeakClearsWhenGrowthStopsForAWindowOrTheProcessEnds) {
    for (int i = 0; i <= 8; ++i) feed(10.0 * i, listing("mlx5_0", {{77, "leaker", 10u + 10u * i}}));
    ASSERT_NE(leak(77), nullptr);
    // Flat for a while: still within the window that grew.
    feed(90, listing("mlx5_0", {{77, "leaker", 90}}));
    EXPECT_NE(leak(77), nullptr);
    for (int i = 10; i <= 17; ++i) feed(10.0 * i, listing("mlx5_0", {{77, "leaker", 90}}));
    EXPECT_EQ(leak(77), nullptr);

    for (int i = 18; i <= 27; ++i)
        feed(10.0 * i, listing("mlx5_0", {{77, "leaker", 90u + 10u * (i - 17)}}));
    ASSERT_NE(leak(77), nullptr);
    feed(280, listing("mlx5_0", {}));  // killed: its MRs are gone
    EXPECT_EQ(leak(77), nullptr);
    EXPECT_EQ(tracker->followed_processes(), 0u);
}

TEST_F(MrUsageTrackerTest, AnIncompleteListingChangesNothing) {
    feed(0, listing("mlx5_0", {{1, "a", 4}}));
    MrInventory cut = listing("mlx5_0", {{1, "a", 1}});
    cut.complete = false;
    feed(1, cut);
    EXPECT_EQ(engine->snapshot()->mrs.usage.processes.at(0).mrs, 4u);
}

TEST_F(MrUsageTrackerTest, ExhaustionNearMaxMrRaisesAndClearsWithHysteresis) {
    feed(0, DeviceLimits{"mlx5_0", 100});
    feed(1, listing("mlx5_0", {{1, "big", 85}, {2, "small", 4}}));
    EXPECT_EQ(device_finding(kRuleMrExhaustionNear), nullptr);
    feed(2, listing("mlx5_0", {{1, "big", 88}, {2, "small", 4}}));
    const Finding* f = device_finding(kRuleMrExhaustionNear);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::critical);
    EXPECT_NE(f->evidence.find("92 MRs of its max_mr 100"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("big (pid 1) 88"), std::string::npos) << f->evidence;
    feed(3, listing("mlx5_0", {{1, "big", 84}, {2, "small", 3}}));  // 87%: above the clear mark
    EXPECT_NE(device_finding(kRuleMrExhaustionNear), nullptr);
    feed(4, listing("mlx5_0", {{1, "big", 80}, {2, "small", 3}}));
    EXPECT_EQ(device_finding(kRuleMrExhaustionNear), nullptr);
    auto snap = engine->snapshot();
    EXPECT_EQ(snap->mrs.usage.devices.at(0).max_mr, 100u);
}

TEST_F(MrUsageTrackerTest, WithoutMaxMrThereIsNoExhaustionJudgement) {
    feed(1, listing("mlx5_0", {{1, "big", 1000}}));
    EXPECT_EQ(device_finding(kRuleMrExhaustionNear), nullptr);
}

TEST_F(MrUsageTrackerTest, MrsWithoutALiveOwnerAreAFindingOnlyAfterTheGrace) {
    // A killed process's MRs are listed for a moment while the kernel closes its files.
    feed(0, listing("mlx5_0", {{9, "app", 3}}));
    feed(10, listing("mlx5_0", {{std::nullopt, "", 3, 4096, true}}));
    engine->advance(test::at(20));
    feed(20, listing("mlx5_0", {}));
    engine->advance(test::at(100));
    EXPECT_EQ(device_finding(kRuleMrOwnerGone), nullptr);

    // Still there after the grace: raised, naming how many; cleared once they go.
    feed(110, listing("mlx5_0", {{std::nullopt, "", 2, 4096, true}}));
    engine->advance(test::at(139));
    EXPECT_EQ(device_finding(kRuleMrOwnerGone), nullptr);
    feed(141, listing("mlx5_0", {{std::nullopt, "", 2, 4096, true}}));
    const Finding* f = device_finding(kRuleMrOwnerGone);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("2 MRs on mlx5_0"), std::string::npos) << f->evidence;
    auto snap = engine->snapshot();
    EXPECT_EQ(snap->mrs.usage.devices.at(0).owner_gone_mrs, 2u);
    ASSERT_FALSE(snap->mrs.usage.processes.empty());
    EXPECT_TRUE(snap->mrs.usage.processes[0].owner_gone);
    feed(150, listing("mlx5_0", {}));
    EXPECT_EQ(device_finding(kRuleMrOwnerGone), nullptr);
}

TEST_F(MrUsageTrackerTest, FollowsAtMostMaxProcesses) {
    MrUsageSettings s;
    s.max_processes = 3;
    s.top_processes = 10;
    make(s);
    std::vector<Holder> many;
    for (uint32_t pid = 1; pid <= 10; ++pid) many.push_back({pid, "p", pid});
    feed(0, listing("mlx5_0", many));
    EXPECT_EQ(tracker->followed_processes(), 3u);
    auto snap = engine->snapshot();
    EXPECT_EQ(snap->mrs.usage.processes.size(), 3u);
    EXPECT_EQ(snap->mrs.usage.other_processes, 7u);
    uint64_t shown = 0;
    for (const auto& p : snap->mrs.usage.processes) shown += p.mrs;
    EXPECT_EQ(shown + snap->mrs.usage.other_mrs, 55u);
}

}  // namespace
}  // namespace rdmadiag::engine::mr
