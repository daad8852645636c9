#include "collector/sim/shipped_scenarios.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "collector/sim/scenario_player.hpp"
#include "tests/collector/sim/sim_test_support.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using namespace rdmadiag::sim::testing;

const PortRef kMlx0{"mlx5_0", 1};
const PortRef kMlx1{"mlx5_1", 1};

// Plays a shipped scenario to its natural end the way the collector would: polls every 100ms,
// re-reading a port after its PKEY_CHANGE or PORT_ACTIVE.
std::vector<Observation> play_shipped(std::string_view name, Duration extra = Duration::zero()) {
    auto sc = load_shipped_scenario(name);
    EXPECT_TRUE(sc.ok()) << (sc.ok() ? "" : sc.error().message);
    if (!sc.ok()) return {};
    ScenarioPlayer player(*sc, PlayerOptions{1s, 10s, "sim"});
    return play(player, sc->end + extra, 100ms);
}

Duration since_start(TimePoint t) {
    return t - t0();
}

std::vector<Duration> times(const std::vector<Timed<AsyncEvent>>& evs) {
    std::vector<Duration> out;
    for (const auto& e : evs) out.push_back(since_start(e.time));
    return out;
}

// Every sample of every view of a port holds the same table.
bool tables_never_change(const std::vector<Observation>& obs, const PortRef& port) {
    std::set<std::vector<uint16_t>> seen;
    for (auto v : kFabricViewOrder) {
        for (const auto& t : tables(obs, port, v)) seen.insert(t.body.table.keys);
    }
    return seen.size() == 1;
}

// The first time a table of that view shows `index` holding `key`.
std::optional<Duration> first_seen(const std::vector<Observation>& obs, const PortRef& port,
                                   PKeyView view, uint16_t index, uint16_t key) {
    for (const auto& t : tables(obs, port, view)) {
        if (index < t.body.table.keys.size() && t.body.table.keys[index] == key) {
            return since_start(t.time);
        }
    }
    return std::nullopt;
}

TEST(ShippedScenarios, AllAreThereInNameOrder) {
    const std::vector<std::string_view> expected = {"counter-reset",
                                                    "counter-saturation-8bit",
                                                    "counter-wrap-16bit",
                                                    "default",
                                                    "device-hotplug",
                                                    "gid-prefix-missed-event",
                                                    "ipoib-index-moved-no-restart",
                                                    "ipoib-index-moved-restart",
                                                    "mr-iwarp-reinvalidate",
                                                    "mr-leak",
                                                    "mr-owner-gone",
                                                    "mr-unknown-timeout",
                                                    "mr-xprtrdma-stuck",
                                                    "partition-drift",
                                                    "pkey-change-missed-event",
                                                    "pkey-change-with-event",
                                                    "pkey-flapping",
                                                    "pkey-index-moved",
                                                    "pkey-late-event",
                                                    "pkey-membership-flip",
                                                    "pkey-removed",
                                                    "pkey-spurious-event",
                                                    "pkey-violations-after-change",
                                                    "pkey-violations-no-change",
                                                    "port-flap",
                                                    "roce-gid-updates-lost",
                                                    "sm-divergence"};
    std::vector<std::string_view> names;
    for (const auto& s : shipped_scenarios()) names.push_back(s.name);
    EXPECT_EQ(names, expected);
    EXPECT_EQ(find_shipped_scenario("nope"), nullptr);
}

TEST(ShippedScenarios, EachTellsItsStoryAndPlaysToItsEndCleanly) {
    for (const auto& s : shipped_scenarios()) {
        SCOPED_TRACE(std::string(s.name));
        // The header comment starts with the scenario's name and tells the story.
        EXPECT_EQ(s.text.substr(0, s.name.size() + 3), "# " + std::string(s.name) + ":");
        auto sc = load_shipped_scenario(s.name);
        ASSERT_TRUE(sc.ok()) << sc.error().message;
        EXPECT_EQ(sc->name, s.name);
        EXPECT_FALSE(sc->title.empty());
        EXPECT_LE(sc->title.size(), 100u);
        EXPECT_GT(sc->end, Duration::zero());
        EXPECT_FALSE(sc->steps.empty());
        const auto obs = play_shipped(s.name);
        EXPECT_TRUE(all_of<SampleError>(obs).empty());
        for (const auto& o : obs) {
            ASSERT_LE(o.time, t0() + sc->end);
            ASSERT_EQ(o.source, "sim");
        }
    }
}

TEST(ShippedScenarios, LoadScenarioDefaultsToDefault) {
    auto sc = load_scenario("");
    ASSERT_TRUE(sc.ok());
    EXPECT_EQ(sc->name, "default");
}

TEST(ShippedScenarios, ChangeWithEvent) {
    const auto obs = play_shipped("pkey-change-with-event");
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::sm, 4, 0x8004), Duration(10s));
    // The device view is read at once because the event triggers a refresh.
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 4, 0x8004), Duration(10s + 100ms));
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::sma, 4, 0x8004), Duration(10s + 100ms));
    EXPECT_EQ(times(events(obs, AsyncEventType::pkey_change)),
              (std::vector<Duration>{10s + 100ms}));
}

TEST(ShippedScenarios, MissedEventChangesTheTableAndNeverSaysSo) {
    const auto obs = play_shipped("pkey-change-missed-event");
    EXPECT_TRUE(events(obs, AsyncEventType::pkey_change).empty());
    // Only the next P_Key poll sees it.
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 4, 0x8004), Duration(20s));
    const auto end = table_at(obs, kMlx0, PKeyView::device, t0() + 90s);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->keys[4], 0x8004);
}

TEST(ShippedScenarios, LateEventComesTwentySecondsAfterTheChange) {
    const auto obs = play_shipped("pkey-late-event");
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 4, 0x8004), Duration(20s));
    const auto ev = events(obs, AsyncEventType::pkey_change);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(since_start(ev[0].time), 30s + 100ms);
    EXPECT_EQ(since_start(ev[0].time) - (10s + 100ms), 20s);  // after the port was programmed
}

TEST(ShippedScenarios, IndexMoved) {
    const auto obs = play_shipped("pkey-index-moved");
    const auto before = table_at(obs, kMlx0, PKeyView::device, t0() + 9s);
    const auto after = table_at(obs, kMlx0, PKeyView::device, t0() + 11s);
    ASSERT_TRUE(before && after);
    EXPECT_EQ(before->keys[2], 0x8002);
    EXPECT_EQ(before->keys[7], 0);
    EXPECT_EQ(after->keys[2], 0);
    EXPECT_EQ(after->keys[7], 0x8002);
    EXPECT_EQ(before->used(), after->used());
    EXPECT_EQ(events(obs, AsyncEventType::pkey_change).size(), 1u);
}

TEST(ShippedScenarios, Removed) {
    const auto obs = play_shipped("pkey-removed");
    const auto after = table_at(obs, kMlx0, PKeyView::device, t0() + 11s);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->keys[2], 0);  // a hole: the table is not compacted
    EXPECT_EQ(after->keys[3], 0x0003);
    EXPECT_EQ(std::count(after->keys.begin(), after->keys.end(), 0x8002), 0);
    EXPECT_EQ(events(obs, AsyncEventType::pkey_change).size(), 1u);
}

TEST(ShippedScenarios, MembershipFlips) {
    const auto obs = play_shipped("pkey-membership-flip");
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 2, 0x0002), Duration(10s + 100ms));
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 3, 0x8003), Duration(30s + 100ms));
    EXPECT_EQ(events(obs, AsyncEventType::pkey_change).size(), 2u);
}

TEST(ShippedScenarios, ViolationsAfterChange) {
    const auto obs = play_shipped("pkey-violations-after-change");
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 6, 0x8002), Duration(10s + 100ms));
    const auto pkv = counters(obs, kMlx0, "p_key_violations");
    ASSERT_FALSE(pkv.empty());
    EXPECT_EQ(pkv[0].body.kind, CounterKind::portinfo);
    EXPECT_EQ(pkv[0].body.width, 16);
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 13s), 0u);
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 14s), 7u);
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 20s), 18u);
    const auto rcv = counters(obs, kMlx0, "port_rcv_constraint_errors");
    EXPECT_EQ(rcv[0].body.width, 8);
    EXPECT_EQ(rcv[0].body.kind, CounterKind::pma);
    EXPECT_EQ(counter_at(obs, kMlx0, "port_rcv_constraint_errors", t0() + 30s), 7u);
    EXPECT_EQ(counter_at(obs, kMlx0, "port_xmit_constraint_errors", t0() + 30s), 2u);
}

TEST(ShippedScenarios, ViolationsWithoutChange) {
    const auto obs = play_shipped("pkey-violations-no-change");
    EXPECT_TRUE(tables_never_change(obs, kMlx0));
    EXPECT_TRUE(all_of<AsyncEvent>(obs).empty());
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 90s), 17u);
    EXPECT_EQ(counter_at(obs, kMlx0, "port_rcv_constraint_errors", t0() + 90s), 11u);
}

TEST(ShippedScenarios, SpuriousEvents) {
    const auto obs = play_shipped("pkey-spurious-event");
    EXPECT_EQ(times(events(obs, AsyncEventType::pkey_change)), (std::vector<Duration>{10s, 25s}));
    EXPECT_TRUE(tables_never_change(obs, kMlx0));
    // The refresh after each event re-read the (same) table at the event's time.
    EXPECT_EQ(tables(obs, kMlx0, PKeyView::device).size(), 7u + 2);  // polls at 0..60s
}

TEST(ShippedScenarios, Flapping) {
    const auto obs = play_shipped("pkey-flapping");
    const auto ev = events(obs, AsyncEventType::pkey_change);
    ASSERT_EQ(ev.size(), 10u);
    EXPECT_LE(ev.back().time - ev.front().time, 30s);
    const auto first = table_at(obs, kMlx0, PKeyView::device, t0());
    const auto last = table_at(obs, kMlx0, PKeyView::device, t0() + 2min);
    ASSERT_TRUE(first && last);
    EXPECT_EQ(*first, *last);  // ends where it started
    std::set<uint16_t> seen;
    for (const auto& t : tables(obs, kMlx0, PKeyView::device)) seen.insert(t.body.table.keys[2]);
    EXPECT_EQ(seen, (std::set<uint16_t>{0x0002, 0x8002}));
}

TEST(ShippedScenarios, CounterReset) {
    const auto obs = play_shipped("counter-reset");
    EXPECT_EQ(counter_at(obs, kMlx0, "symbol_error", t0() + 19s), 120u);
    EXPECT_EQ(counter_at(obs, kMlx0, "symbol_error", t0() + 20s), 0u);
    EXPECT_EQ(counter_at(obs, kMlx0, "symbol_error", t0() + 30s), 4u);
    EXPECT_EQ(counter_at(obs, kMlx0, "link_downed", t0() + 20s), 0u);
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 20s), 12u);  // PortInfo stays
    EXPECT_LT(*counter_at(obs, kMlx0, "port_xmit_data", t0() + 20s),
              *counter_at(obs, kMlx0, "port_xmit_data", t0() + 19s));
}

TEST(ShippedScenarios, EightBitSaturation) {
    const auto obs = play_shipped("counter-saturation-8bit");
    std::vector<uint64_t> values;
    for (auto s : {0s, 10s, 20s, 30s, 40s, 60s}) {
        values.push_back(*counter_at(obs, kMlx0, "port_rcv_constraint_errors", t0() + s));
    }
    EXPECT_EQ(values, (std::vector<uint64_t>{200, 240, 255, 255, 255, 255}));
    EXPECT_EQ(counter_at(obs, kMlx0, "port_xmit_constraint_errors", t0() + 35s), 255u);
    for (const auto& c : counters(obs, kMlx0, "port_rcv_constraint_errors")) {
        EXPECT_EQ(c.body.width, 8);
    }
}

TEST(ShippedScenarios, SixteenBitWrap) {
    const auto obs = play_shipped("counter-wrap-16bit");
    std::vector<uint64_t> values;
    for (auto s : {0s, 10s, 20s, 30s}) {
        values.push_back(*counter_at(obs, kMlx0, "p_key_violations", t0() + s));
    }
    EXPECT_EQ(values, (std::vector<uint64_t>{65000, 65300, 164, 264}));
    EXPECT_EQ(counter_at(obs, kMlx0, "symbol_error", t0() + 20s), 65535u);  // PMA: saturates
    const auto pkv = counters(obs, kMlx0, "p_key_violations");
    EXPECT_EQ(pkv[0].body.width, 16);
    EXPECT_EQ(pkv[0].body.kind, CounterKind::portinfo);
}

TEST(ShippedScenarios, SmDivergence) {
    const auto obs = play_shipped("sm-divergence");
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::sm, 5, 0x8005), Duration(10s));
    EXPECT_FALSE(first_seen(obs, kMlx0, PKeyView::device, 5, 0x8005));
    EXPECT_FALSE(first_seen(obs, kMlx0, PKeyView::sma, 5, 0x8005));
    EXPECT_TRUE(all_of<AsyncEvent>(obs).empty());
}

TEST(ShippedScenarios, XprtrdmaStuckMr) {
    const auto obs = play_shipped("mr-xprtrdma-stuck");
    const auto mr = mr_events(obs, "mlx5_0", 17);
    std::vector<std::tuple<Duration, MrOp, WcStatus>> seq;
    for (const auto& m : mr) seq.emplace_back(since_start(m.time), m.body.op, m.body.status);
    EXPECT_EQ(seq, (std::vector<std::tuple<Duration, MrOp, WcStatus>>{
                       {0s, MrOp::alloc, WcStatus::success},
                       {1s, MrOp::fastreg, WcStatus::success},
                       {2s, MrOp::local_inv, WcStatus::success},
                       {3s, MrOp::fastreg, WcStatus::success},
                       {10s, MrOp::local_inv, WcStatus::wr_flush_err},
                       {15s, MrOp::fastreg, WcStatus::mw_bind_err},
                       {45s, MrOp::dereg, WcStatus::success}}));
    for (const auto& m : mr) {
        EXPECT_EQ(m.body.owner, (MrOwner{std::nullopt, "xprtrdma"}));
        EXPECT_EQ(m.body.key, 0x00011a03u);
    }
    EXPECT_EQ(mr.back().body.rc, 0);
    const auto qp = events(obs, AsyncEventType::qp_fatal);
    ASSERT_EQ(qp.size(), 1u);
    EXPECT_EQ(since_start(qp[0].time), 10s);
    EXPECT_EQ(qp[0].body.element, 0x1c5u);
    EXPECT_EQ(mr_events(obs, "mlx5_0", 18).size(), 2u);
}

TEST(ShippedScenarios, MrLeftUnknown) {
    const auto obs = play_shipped("mr-unknown-timeout", 10min);
    const auto mr = mr_events(obs, "mlx5_0", 9);
    ASSERT_FALSE(mr.empty());
    EXPECT_EQ(since_start(mr.back().time), 10s);
    EXPECT_EQ(mr.back().body.op, MrOp::local_inv);
    EXPECT_EQ(mr.back().body.status, WcStatus::wr_flush_err);
    EXPECT_EQ(mr.back().body.owner, (MrOwner{31337, "ib_write_bw"}));
    auto sc = load_shipped_scenario("mr-unknown-timeout");
    EXPECT_GE(sc->end, 2min);  // long enough for the warning threshold
}

TEST(ShippedScenarios, IwarpReinvalidate) {
    const auto obs = play_shipped("mr-iwarp-reinvalidate");
    const auto infos = all_of<DeviceInfo>(obs);
    ASSERT_FALSE(infos.empty());
    EXPECT_EQ(infos[0].body.transport, Transport::iwarp);
    EXPECT_EQ(infos[0].body.node_type, "RNIC");
    EXPECT_TRUE(all_of<PKeyTableSample>(obs).empty());
    const auto mr = mr_events(obs, "cxgb4_0", 5);
    ASSERT_EQ(mr.size(), 5u);
    EXPECT_EQ(mr[2].body.status, WcStatus::wr_flush_err);
    EXPECT_EQ(mr[3].body.op, MrOp::local_inv);
    EXPECT_EQ(mr[3].body.status, WcStatus::success);
    EXPECT_EQ(since_start(mr[3].time), 40s);
    for (const auto& m : mr) EXPECT_NE(m.body.op, MrOp::dereg);
}

TEST(ShippedScenarios, PortFlap) {
    const auto obs = play_shipped("port-flap");
    EXPECT_EQ(times(events(obs, AsyncEventType::port_err)), (std::vector<Duration>{10s, 30s}));
    EXPECT_EQ(times(events(obs, AsyncEventType::port_active)), (std::vector<Duration>{14s, 32s}));
    for (const auto& s : all_of<PortStateSample>(obs)) {
        if (s.body.port != kMlx0) {
            EXPECT_EQ(s.body.state, PortState::active);
            continue;
        }
        const auto t = since_start(s.time);
        const bool down = (t >= 10s && t < 14s) || (t >= 30s && t < 32s);
        EXPECT_EQ(s.body.state, down ? PortState::down : PortState::active) << format_duration(t);
        EXPECT_EQ(s.body.phys_state, down ? 2 : 5);
    }
    EXPECT_EQ(counter_at(obs, kMlx0, "link_downed", t0() + 60s), 2u);
    // No traffic while the link is down.
    EXPECT_EQ(counter_at(obs, kMlx0, "port_xmit_data", t0() + 10s),
              counter_at(obs, kMlx0, "port_xmit_data", t0() + 13s));
}

TEST(ShippedScenarios, DeviceHotplug) {
    const auto obs = play_shipped("device-hotplug");
    for (const auto& l : all_of<DeviceList>(obs)) {
        const auto t = since_start(l.time);
        const bool gone = t >= 20s && t < 40s;
        const bool listed = std::find(l.body.devices.begin(), l.body.devices.end(), "mlx5_1") !=
                            l.body.devices.end();
        EXPECT_EQ(listed, !gone) << format_duration(t);
    }
    for (const auto& c : counters(obs, kMlx1, "symbol_error")) {
        const auto t = since_start(c.time);
        EXPECT_FALSE(t >= 20s && t < 40s) << format_duration(t);
    }
    const auto fatal = events(obs, AsyncEventType::device_fatal);
    ASSERT_EQ(fatal.size(), 1u);
    EXPECT_EQ(since_start(fatal[0].time), 20s);
    // Back at 40s: read whole again, with its counters reset.
    bool info_again = false;
    for (const auto& i : all_of<DeviceInfo>(obs)) {
        info_again = info_again || (i.body.device == "mlx5_1" && since_start(i.time) == 40s);
    }
    EXPECT_TRUE(info_again);
    EXPECT_EQ(counter_at(obs, kMlx1, "symbol_error", t0() + 19s), 7u);
    EXPECT_EQ(counter_at(obs, kMlx1, "symbol_error", t0() + 40s), 0u);
    EXPECT_EQ(first_seen(obs, kMlx1, PKeyView::device, 2, 0x8002), Duration(0s));
}

TEST(ShippedScenarios, DefaultShowsEveryKindOfTrouble) {
    const auto obs = play_shipped("default");
    const PortRef roce{"mlx5_2", 1};
    std::set<std::string> devices;
    for (const auto& i : all_of<DeviceInfo>(obs)) devices.insert(i.body.device);
    EXPECT_EQ(devices, (std::set<std::string>{"cxgb4_0", "mlx5_0", "mlx5_1", "mlx5_2"}));

    // Prompt change, late event (60s), move, flip, removal, divergence, spurious, flapping.
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 4, 0x8004), Duration(20s + 100ms));
    EXPECT_EQ(first_seen(obs, kMlx1, PKeyView::device, 3, 0x8005), Duration(50s));
    const auto mlx1_events = [&] {
        std::vector<Duration> out;
        for (const auto& e : events(obs, AsyncEventType::pkey_change)) {
            if (e.body.device == "mlx5_1") out.push_back(since_start(e.time));
        }
        return out;
    }();
    ASSERT_GE(mlx1_events.size(), 3u);
    EXPECT_EQ(mlx1_events[0], 100s + 100ms);  // the late one
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 9, 0x8002), Duration(60s + 100ms));
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 3, 0x8003), Duration(90s + 100ms));
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::sm, 6, 0x8006), Duration(130s));
    EXPECT_EQ(first_seen(obs, kMlx0, PKeyView::device, 6, 0x8006), Duration(160s));
    EXPECT_EQ(counter_at(obs, kMlx0, "p_key_violations", t0() + 75s), 21u);
    EXPECT_EQ(counter_at(obs, kMlx1, "port_xmit_constraint_errors", t0() + 240s), 255u);
    EXPECT_EQ(counter_at(obs, kMlx1, "p_key_violations", t0() + 240s), 164u);
    EXPECT_EQ(counter_at(obs, kMlx1, "port_xmit_constraint_errors", t0() + 250s), 0u);
    EXPECT_EQ(times(events(obs, AsyncEventType::port_err)), (std::vector<Duration>{200s}));
    EXPECT_EQ(counter_at(obs, roce, "link_downed", t0() + 210s), 1u);

    const auto xprt = mr_events(obs, "mlx5_0", 17);
    auto has = [&](MrOp op, WcStatus st) {
        return std::any_of(xprt.begin(), xprt.end(),
                           [&](const auto& m) { return m.body.op == op && m.body.status == st; });
    };
    EXPECT_TRUE(has(MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_TRUE(has(MrOp::fastreg, WcStatus::mw_bind_err));
    EXPECT_TRUE(has(MrOp::dereg, WcStatus::success));
    const auto fio = mr_events(obs, "cxgb4_0", 5);
    ASSERT_FALSE(fio.empty());
    EXPECT_EQ(fio.front().body.owner, (MrOwner{4242, "fio"}));
    // fio's iWARP MR stays unknown for more than two minutes before it is re-invalidated.
    std::optional<Duration> flushed, reinvalidated;
    for (const auto& m : fio) {
        if (m.body.op != MrOp::local_inv) continue;
        if (m.body.status == WcStatus::wr_flush_err) flushed = since_start(m.time);
        if (m.body.status == WcStatus::success && flushed) reinvalidated = since_start(m.time);
    }
    ASSERT_TRUE(flushed && reinvalidated);
    EXPECT_GE(*reinvalidated - *flushed, 2min);
}

TEST(ShippedScenarios, DefaultLoopsBackToWhereItStarted) {
    const auto obs = play_shipped("default", 5min);
    for (const auto& port : {kMlx0, kMlx1}) {
        for (auto v : kFabricViewOrder) {
            const auto first = table_at(obs, port, v, t0());
            const auto end = table_at(obs, port, v, t0() + 5min);
            ASSERT_TRUE(first && end);
            EXPECT_EQ(*first, *end) << port.to_string() << " " << to_string(v);
        }
    }
    // The second round tells the same story 5 minutes later.
    std::vector<Duration> first, second;
    for (const auto& e : all_of<AsyncEvent>(obs)) {
        const auto t = since_start(e.time);
        if (t < 5min) first.push_back(t);
        if (t >= 5min && t < 10min) second.push_back(t - 5min);
    }
    EXPECT_EQ(first, second);
    EXPECT_TRUE(all_of<SampleError>(obs).empty());
}

}  // namespace
}  // namespace rdmadiag::sim

namespace rdmadiag::sim {
namespace {

// The subnet prefix of each `view` sample of a port's GID 0, with its time.
std::vector<std::pair<Duration, uint64_t>> prefixes(const std::vector<Observation>& obs,
                                                    const PortRef& port, GidView view) {
    std::vector<std::pair<Duration, uint64_t>> out;
    for (const auto& o : obs) {
        const auto* g = std::get_if<GidTableSample>(&o.body);
        if (g == nullptr || g->port != port || g->view != view) continue;
        const GidEntry* e = g->table.at(0);
        if (e != nullptr) out.emplace_back(o.time - testing::t0(), e->gid.prefix());
    }
    return out;
}

TEST(ShippedScenarios, GidPrefixChangeReachesOnePortsCacheOnly) {
    const auto obs = play_shipped("gid-prefix-missed-event");
    const PortRef one{"mlx5_0", 1};
    const PortRef two{"mlx5_0", 2};
    constexpr uint64_t kOld = 0xfe80000000000000ull;
    constexpr uint64_t kNew = 0xfec0000000000000ull;
    std::vector<Duration> gid_events;
    for (const auto& o : obs) {
        const auto* e = std::get_if<AsyncEvent>(&o.body);
        if (e != nullptr && e->type == AsyncEventType::gid_change) {
            EXPECT_EQ(e->port, 1u);
            gid_events.push_back(o.time - testing::t0());
        }
    }
    EXPECT_EQ(gid_events, (std::vector<Duration>{10s + 100ms}));
    for (const PortRef& p : {one, two}) {
        ASSERT_FALSE(prefixes(obs, p, GidView::sma).empty());
        EXPECT_EQ(prefixes(obs, p, GidView::sma).front().second, kOld);
        EXPECT_EQ(prefixes(obs, p, GidView::sma).back().second, kNew);
        EXPECT_EQ(prefixes(obs, p, GidView::sm).back().second, kNew);
    }
    EXPECT_EQ(prefixes(obs, one, GidView::cache).back().second, kNew);
    for (const auto& [at, prefix] : prefixes(obs, two, GidView::cache)) {
        EXPECT_EQ(prefix, kOld) << "at " << at.count();
    }
}

}  // namespace
}  // namespace rdmadiag::sim
