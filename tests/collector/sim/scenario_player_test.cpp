#include "collector/sim/scenario_player.hpp"

#include <gtest/gtest.h>

#include "collector/sim/scenario_parser.hpp"
#include "collector/sim/shipped_scenarios.hpp"
#include "tests/collector/sim/sim_test_support.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using testing::all_of;
using testing::play;
using testing::t0;

constexpr std::string_view kStory = R"scn(
end 30s
device ib0
port ib0:1 pkeys=8
pkeys ib0:1 1:0x8001 2:0x8002
counter ib0:1 p_key_violations 0
counter ib0:1 port_xmit_data 0 rate=1000/s
mr ib0 4 owner=xprtrdma
at 5s pkey-move ib0:1 0x8002 6 event=3s
at 7s counter-add ib0:1 p_key_violations 2
at 7.25s mr ib0 4 LOCAL_INV status=WR_FLUSH_ERR
at 12s port-down ib0:1
at 13s port-up ib0:1
)scn";

Scenario story(std::string_view text = kStory) {
    auto r = parse_scenario(text);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    Scenario sc = r.ok() ? std::move(r).value() : Scenario{};
    sc.name = "story";
    return sc;
}

PlayerOptions options() {
    PlayerOptions o;
    o.counter_interval = 1s;
    o.pkey_interval = 5s;
    return o;
}

TEST(ScenarioPlayer, StartsWithItsStatusAndAFullSample) {
    ScenarioPlayer p(story(), options());
    sources::VectorSink sink;
    p.play_until(t0(), sink);
    ASSERT_TRUE(p.started());
    EXPECT_EQ(p.start_time(), t0());
    ASSERT_FALSE(sink.observations.empty());
    const auto& status = std::get<SourceStatus>(sink.observations[0].body);
    EXPECT_TRUE(status.up);
    EXPECT_NE(status.reason.find("story"), std::string::npos);
    EXPECT_EQ(all_of<DeviceInfo>(sink.observations).size(), 1u);
    EXPECT_EQ(all_of<DeviceList>(sink.observations).size(), 1u);
    EXPECT_EQ(all_of<PKeyTableSample>(sink.observations).size(), 3u);
    EXPECT_EQ(all_of<CounterSample>(sink.observations).size(), 2u);
    for (const auto& o : sink.observations) {
        EXPECT_EQ(o.time, t0());
        EXPECT_EQ(o.source, "sim");
    }
    // Nothing more is due until the next second.
    sink.observations.clear();
    p.play_until(t0() + 999ms, sink);
    EXPECT_TRUE(sink.observations.empty());
}

TEST(ScenarioPlayer, SamplesOnTwoCadencesAndStampsScenarioTime) {
    ScenarioPlayer p(story(), options());
    const auto obs = play(p, 30s, 30s, false);  // one poll at the end: everything still in order
    EXPECT_EQ(all_of<CounterSample>(obs).size(), 31u * 2);
    EXPECT_EQ(all_of<PKeyTableSample>(obs).size(), 7u * 3);
    EXPECT_EQ(all_of<DeviceInfo>(obs).size(), 7u);
    for (size_t i = 1; i < obs.size(); ++i) EXPECT_LE(obs[i - 1].time, obs[i].time);
    const auto flush = testing::mr_events(obs, "ib0", 4);
    ASSERT_EQ(flush.size(), 1u);
    EXPECT_EQ(flush[0].time, t0() + 7250ms);
    const auto pkey = testing::events(obs, AsyncEventType::pkey_change);
    ASSERT_EQ(pkey.size(), 1u);
    EXPECT_EQ(pkey[0].time, t0() + 8100ms);  // 5s + 100ms programming + 3s late
}

TEST(ScenarioPlayer, ASampleAtTheMomentOfAChangeSeesIt) {
    ScenarioPlayer p(story("device ib0\nport ib0:1\ncounter ib0:1 symbol_error 0\n"
                           "at 2s counter-add ib0:1 symbol_error 4\n"),
                     options());
    const auto obs = play(p, 3s, 1s, false);
    EXPECT_EQ(testing::counter_at(obs, PortRef{"ib0", 1}, "symbol_error", t0() + 1s), 0u);
    EXPECT_EQ(testing::counter_at(obs, PortRef{"ib0", 1}, "symbol_error", t0() + 2s), 4u);
}

TEST(ScenarioPlayer, SameObservationsWhateverThePollTimes) {
    for (const auto& shipped : shipped_scenarios()) {
        SCOPED_TRACE(std::string(shipped.name));
        auto sc = load_shipped_scenario(shipped.name);
        ASSERT_TRUE(sc.ok()) << sc.error().message;
        const Duration until = sc->end + (sc->loop ? sc->end / 2 : Duration::zero());
        ScenarioPlayer fine(*sc, options());
        ScenarioPlayer coarse(*sc, options());
        ScenarioPlayer once(*sc, options());
        const auto a = play(fine, until, 250ms, false);
        const auto b = play(coarse, until, 7s, false);
        const auto c = play(once, until, until, false);
        EXPECT_EQ(a, b);
        EXPECT_EQ(a, c);
        // And the same again from a fresh player.
        ScenarioPlayer again(*sc, options());
        EXPECT_EQ(play(again, until, 250ms, false), a);
    }
}

TEST(ScenarioPlayer, RefreshRereadsOnePortNow) {
    ScenarioPlayer p(story(), options());
    sources::VectorSink sink;
    p.start(t0(), sink);
    p.play_until(t0() + 5200ms, sink);  // the move has been programmed, no table poll since 5s
    sink.observations.clear();
    p.refresh(PortRef{"ib0", 1}, t0() + 5300ms, sink);
    const auto ts = all_of<PKeyTableSample>(sink.observations);
    ASSERT_EQ(ts.size(), 3u);
    for (const auto& t : ts) {
        EXPECT_EQ(t.time, t0() + 5300ms);
        EXPECT_EQ(t.body.table.keys[2], 0);
        EXPECT_EQ(t.body.table.keys[6], 0x8002);
    }
    EXPECT_EQ(all_of<PortStateSample>(sink.observations).size(), 1u);
    EXPECT_TRUE(all_of<CounterSample>(sink.observations).empty());

    sink.observations.clear();
    p.refresh(PortRef{"ib0", 0}, t0() + 5300ms, sink);  // port 0: every port of the device
    EXPECT_EQ(all_of<PKeyTableSample>(sink.observations).size(), 3u);
    sink.observations.clear();
    p.refresh(PortRef{"nosuch", 1}, t0() + 5300ms, sink);
    EXPECT_TRUE(sink.observations.empty());
}

TEST(ScenarioPlayer, RefreshPlaysUpToItsTimeFirst) {
    ScenarioPlayer p(story(), options());
    sources::VectorSink sink;
    p.play_until(t0(), sink);
    sink.observations.clear();
    p.refresh(PortRef{"ib0", 1}, t0() + 5200ms, sink);
    const auto ts = all_of<PKeyTableSample>(sink.observations);
    ASSERT_FALSE(ts.empty());
    EXPECT_EQ(ts.back().time, t0() + 5200ms);
    EXPECT_EQ(ts.back().body.table.keys[6], 0x8002);
    EXPECT_EQ(p.played_until(), t0() + 5200ms);
}

TEST(ScenarioPlayer, ExplicitStartFixesTimeZero) {
    ScenarioPlayer p(story(), options());
    sources::VectorSink sink;
    p.start(t0() - 10s, sink);
    p.start(t0(), sink);  // ignored
    p.play_until(t0(), sink);
    EXPECT_EQ(p.start_time(), t0() - 10s);
    EXPECT_EQ(all_of<SourceStatus>(sink.observations).size(), 1u);
    EXPECT_EQ(all_of<CounterSample>(sink.observations).size(), 11u * 2);
}

TEST(ScenarioPlayer, LoopReplaysTheTimelineEveryPeriod) {
    ScenarioPlayer p(story("end 10s\nloop\ndevice ib0\nport ib0:1\n"
                           "at 0s event ib0:1 SM_CHANGE\nat 4s event ib0 DEVICE_FATAL\n"),
                     options());
    const auto obs = play(p, 35s, 1s, false);
    std::vector<TimePoint> sm, fatal;
    for (const auto& e : all_of<AsyncEvent>(obs)) {
        (e.body.type == AsyncEventType::sm_change ? sm : fatal).push_back(e.time);
    }
    EXPECT_EQ(sm, (std::vector<TimePoint>{t0(), t0() + 10s, t0() + 20s, t0() + 30s}));
    EXPECT_EQ(fatal, (std::vector<TimePoint>{t0() + 4s, t0() + 14s, t0() + 24s, t0() + 34s}));
}

TEST(ScenarioPlayer, WithoutLoopTheFabricStaysAsItEnded) {
    ScenarioPlayer p(story(), options());
    const auto obs = play(p, 90s, 10s, false);
    EXPECT_EQ(testing::events(obs, AsyncEventType::pkey_change).size(), 1u);
    const auto last = testing::table_at(obs, PortRef{"ib0", 1}, PKeyView::device, t0() + 90s);
    ASSERT_TRUE(last);
    EXPECT_EQ(last->keys[6], 0x8002);
    // Sampling goes on after the end, like a real fabric that is simply quiet.
    EXPECT_EQ(all_of<CounterSample>(obs).size(), 91u * 2);
}

TEST(ScenarioPlayer, HandsOverItsPartitionsConfOnceAtTimeZero) {
    Scenario sc = story(
        "end 10s\nloop\ndevice ib0\nport ib0:1\npartitions.conf \"Default=0x7fff : ALL=full ;\"\n"
        "at 4s event ib0 DEVICE_FATAL\n");
    sc.partitions_conf->path = "story.scn";
    ScenarioPlayer p(sc, options());
    auto obs = play(p, 35s, 1s, false);
    auto handed = all_of<PartitionsConfText>(obs);
    ASSERT_EQ(handed.size(), 1u);  // not once a round: the intent is the scenario's
    EXPECT_EQ(handed[0].time, t0());
    EXPECT_EQ(handed[0].body,
              (PartitionsConfText{"story.scn", "Default=0x7fff : ALL=full ;\n", std::nullopt}));
    // Right after the source's status, before any sample.
    ASSERT_GE(obs.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<SourceStatus>(obs[0].body));
    EXPECT_TRUE(std::holds_alternative<PartitionsConfText>(obs[1].body));

    // Kept back when the collector reads a partitions.conf of its own.
    PlayerOptions without = options();
    without.hand_over_partitions_conf = false;
    ScenarioPlayer q(sc, without);
    EXPECT_TRUE(all_of<PartitionsConfText>(play(q, 5s, 1s, false)).empty());
}

TEST(ScenarioPlayer, ALoopThatCannotRepeatSaysSoAndGoesOn) {
    ScenarioPlayer p(story("end 10s\nloop\ndevice ib0\nport ib0:1\ndevice ib1\nport ib1:1\n"
                           "at 5s device-remove ib1\nat 6s event ib0:1 LID_CHANGE\n"),
                     options());
    const auto obs = play(p, 20s, 1s, false);
    const auto errors = all_of<SampleError>(obs);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].time, t0() + 15s);
    EXPECT_EQ(errors[0].body.subject, "scenario story line 7");
    EXPECT_EQ(errors[0].body.message, "device ib1 is already removed");
    EXPECT_EQ(testing::events(obs, AsyncEventType::lid_change).size(), 2u);
}

TEST(ScenarioPlayer, NonPositiveIntervalsFallBackToDefaults) {
    PlayerOptions o;
    o.counter_interval = Duration::zero();
    o.pkey_interval = -1s;
    ScenarioPlayer p(story(), o);
    EXPECT_EQ(p.options().counter_interval, 1s);
    EXPECT_EQ(p.options().pkey_interval, 10s);
}

}  // namespace
}  // namespace rdmadiag::sim
