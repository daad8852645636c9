// The shipped P_Key and counter scenarios, end to end: the simulated fabric plays each one into
// the default engine (refresh requests routed back, as the daemon does), every finding it is
// about must fire, and the stream is recorded. The committed recording
// (tests/fixtures/recordings/sim-<scenario>.jsonl) must replay to the same findings.
// RDMADIAG_UPDATE_RECORDINGS=1 rewrites the recordings.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "collector/engine/default/default_engine.hpp"
#include "collector/replay/recorder.hpp"
#include "collector/replay/recording_reader.hpp"
#include "collector/replay/replay_source.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "tests/collector/replay/engine_findings.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::replay {
namespace {

using test::all_findings;
using test::fired;

struct Expectation {
    std::string scenario;
    std::vector<std::string> fires;    // active or cleared by the end
    std::vector<std::string> cleared;  // fired and cleared by the end
    std::vector<std::string> absent;
};

const std::vector<Expectation>& expectations() {
    static const std::vector<Expectation> all = {
        {"pkey-change-with-event", {}, {}, {"pkey.cache_stale", "pkey.spurious_event"}},
        {"pkey-change-missed-event", {"pkey.cache_stale"}, {}, {}},
        {"pkey-late-event", {"pkey.cache_stale"}, {"pkey.cache_stale"}, {}},
        {"pkey-index-moved", {"pkey.index_moved"}, {}, {"pkey.removed"}},
        {"pkey-removed", {"pkey.removed"}, {}, {}},
        {"pkey-membership-flip", {"pkey.membership_changed"}, {}, {"pkey.removed"}},
        {"pkey-violations-after-change", {"pkey.violations_after_change"}, {}, {}},
        {"pkey-violations-no-change", {}, {}, {"pkey.violations_after_change"}},
        {"pkey-spurious-event", {"pkey.spurious_event"}, {}, {"pkey.cache_stale"}},
        {"pkey-flapping", {"pkey.flapping"}, {}, {}},
        {"sm-divergence", {"pkey.view_divergence"}, {}, {}},
        {"counter-saturation-8bit", {"pkey.counter_saturated"}, {}, {}},
        {"counter-reset", {}, {}, {"pkey.violations_after_change"}},
        {"counter-wrap-16bit", {}, {}, {"pkey.counter_saturated"}},
        {"gid-prefix-missed-event", {"gid.cache_stale"}, {}, {"gid.prefix_mismatch"}},
        {"roce-gid-updates-lost", {"roce.gid_stale", "roce.gid_missing"}, {}, {"gid.duplicate"}},
        // The consumer.* findings are judged while a snapshot is made: SimulatedConsumers below.
        {"ipoib-index-moved-restart", {"pkey.index_moved"}, {}, {"pkey.cache_stale"}},
        {"ipoib-index-moved-no-restart", {"pkey.index_moved", "pkey.cache_stale"}, {}, {}},
    };
    return all;
}

// A default engine fed the whole recording through the replay source, its clock then moved to
// `until`.
std::unique_ptr<engine::Engine> replay_into_engine(Recording recording, TimePoint until) {
    auto replayed = engine::make_default_engine();
    class Feed final : public sources::ObservationSink {
    public:
        explicit Feed(engine::Engine& e) : e_(e) {}
        void emit(Observation o) override { e_.consume(o); }
        engine::Engine& e_;
    } feed(*replayed);
    ReplaySource source(std::move(recording), ReplaySettings{0, 4096});
    while (!source.finished()) source.poll(TimePoint{}, feed);
    replayed->advance(until);
    return replayed;
}

// Plays the scenario on virtual time, returning every observation in the order the engine got it.
std::vector<Observation> play(const std::string& name, engine::Engine& engine) {
    sources::SourceSettings settings;
    settings.scenario = name;
    auto fabric = sim::make_simulated_fabric(settings);
    EXPECT_TRUE(fabric.ok()) << (fabric.ok() ? "" : fabric.error().message);
    if (!fabric.ok()) return {};
    auto& src = **fabric;
    const TimePoint start{std::chrono::seconds(1'764'685'000)};
    const auto end = start + src.natural_end();
    std::vector<Observation> played;
    sources::VectorSink pending;
    auto drain = [&] {
        std::stable_sort(
            pending.observations.begin(), pending.observations.end(),
            [](const Observation& a, const Observation& b) { return a.time < b.time; });
        for (auto& o : pending.observations) {
            engine.consume(o);
            played.push_back(std::move(o));
        }
        pending.observations.clear();
    };
    for (auto t = start;; t += src.poll_interval()) {
        const auto now = std::min(t, end);
        src.poll(now, pending);
        drain();
        for (int round = 0; round < 4; ++round) {
            auto requests = engine.take_refresh_requests();
            if (requests.empty()) break;
            for (const auto& r : requests) src.refresh(r, now, pending);
            drain();
        }
        engine.advance(now);
        if (t >= end) break;
    }
    return played;
}

class SimulatedScenario : public ::testing::TestWithParam<Expectation> {};

TEST_P(SimulatedScenario, FindingsFireAndTheRecordingReplaysToThem) {
    const auto& exp = GetParam();
    auto direct = engine::make_default_engine();
    const auto observations = play(exp.scenario, *direct);
    ASSERT_FALSE(observations.empty());
    const auto findings = all_findings(*direct);
    for (const auto& r : exp.fires) EXPECT_TRUE(fired(findings, r)) << r;
    for (const auto& r : exp.absent) EXPECT_FALSE(fired(findings, r)) << r;
    for (const auto& r : exp.cleared) {
        const auto& h = direct->findings().history();
        EXPECT_TRUE(std::any_of(h.begin(), h.end(), [&](const Finding& f) { return f.rule == r; }))
            << r << " did not clear";
    }

    const std::string path =
        ::rdmadiag::test::fixtures_dir() + "/recordings/sim-" + exp.scenario + ".jsonl";
    if (std::getenv("RDMADIAG_UPDATE_RECORDINGS")) {
        std::ofstream out(path);
        RecordingHeader h;
        h.created = observations.front().time;
        h.origin = "rdmadiag record --simulate=" + exp.scenario;
        Recorder rec(out, h);
        for (const auto& o : observations) rec.emit(o);
        ASSERT_TRUE(rec.good());
    }
    auto recording = read_recording_file(path);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    EXPECT_TRUE(recording->problems.empty());
    EXPECT_EQ(recording->observations, observations)
        << "stale recording: rerun with RDMADIAG_UPDATE_RECORDINGS=1";
    auto replayed = replay_into_engine(std::move(*recording), direct->now());
    EXPECT_EQ(all_findings(*replayed), findings);
}

std::string param_name(const ::testing::TestParamInfo<Expectation>& info) {
    std::string n = info.param.scenario;
    std::replace(n.begin(), n.end(), '-', '_');
    return n;
}

INSTANTIATE_TEST_SUITE_P(Shipped, SimulatedScenario, ::testing::ValuesIn(expectations()),
                         param_name);

// A scenario's own partitions.conf is an observation like the partitions source's: recorded with
// the rest, it replays to the same partition model and the same findings.
// The consumers the fabric lists: ib0.8002's key moves; with PKEY_CHANGE the kernel restarts it,
// without it the interface never does and the finding says so once the bound has passed.
TEST(SimulatedConsumers, AnIpoibChildThatRestartsAndOneThatDoesNot) {
    for (const auto& [scenario, severity, says, index] :
         {std::tuple{"ipoib-index-moved-restart", Severity::info, "restarted (its carrier bounced)",
                     7},
          std::tuple{"ipoib-index-moved-no-restart", Severity::warning, "has not restarted in 1m",
                     2}}) {
        SCOPED_TRACE(scenario);
        auto engine = engine::make_default_engine();
        play(scenario, *engine);
        const auto snap = engine->snapshot();
        ASSERT_TRUE(snap->consumers);
        ASSERT_EQ(snap->consumers->devices.size(), 1u);
        const Finding* moved = nullptr;
        for (const auto& f : snap->findings)
            if (f.rule == "consumer.index_moved") moved = &f;
        ASSERT_NE(moved, nullptr);
        EXPECT_EQ(moved->severity, severity);
        EXPECT_EQ(moved->subject.pkey, 0x8002);
        EXPECT_NE(moved->evidence.find("ib0.8002"), std::string::npos) << moved->evidence;
        EXPECT_NE(moved->evidence.find(says), std::string::npos) << moved->evidence;
        // The child's index is inferred from the table as the engine holds it: the new one after
        // a restart, the old one without.
        for (const auto& c : snap->consumers->devices[0].consumers) {
            if (c.name != "ib0.8002") continue;
            EXPECT_EQ(c.pkey_index, index);
            EXPECT_EQ(c.index_source, IndexSource::inferred);
        }
        // The recording replays to the same consumers and the same judgement of them.
        auto recording = read_recording_file(::rdmadiag::test::fixtures_dir() + "/recordings/sim-" +
                                             scenario + ".jsonl");
        ASSERT_TRUE(recording.ok()) << recording.error().message;
        auto replayed = replay_into_engine(std::move(*recording), engine->now());
        const auto again = replayed->snapshot();
        ASSERT_TRUE(again->consumers);
        EXPECT_EQ(again->consumers->devices, snap->consumers->devices);
        const Finding* replayed_move = nullptr;
        for (const auto& f : again->findings)
            if (f.rule == "consumer.index_moved") replayed_move = &f;
        ASSERT_NE(replayed_move, nullptr);
        EXPECT_EQ(replayed_move->evidence, moved->evidence);
        EXPECT_EQ(replayed_move->severity, moved->severity);
    }
}

TEST(SimulatedPartitions, TheScenariosIntentIsRecordedAndReplaysToTheSameJudgement) {
    auto direct = engine::make_default_engine();
    const auto observations = play("partition-drift", *direct);
    size_t intents = 0;
    for (const auto& o : observations)
        intents += std::holds_alternative<PartitionsConfText>(o.body);
    EXPECT_EQ(intents, 1u);
    // Partitions are judged as a snapshot is made.
    const auto a = direct->snapshot();
    const auto findings = all_findings(*direct);
    for (const char* rule : {"partition.member_missing", "partition.unexpected_member",
                             "partition.membership_mismatch", "partition.enforcement_off"}) {
        EXPECT_TRUE(fired(findings, rule)) << rule;
    }

    std::stringstream text;
    RecordingHeader h;
    h.created = observations.front().time;
    h.origin = "rdmadiag record --simulate=partition-drift";
    Recorder rec(text, h);
    for (const auto& o : observations) rec.emit(o);
    ASSERT_TRUE(rec.good());
    auto recording = read_recording(text);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    EXPECT_TRUE(recording->problems.empty());
    EXPECT_EQ(recording->observations, observations);

    auto replayed = replay_into_engine(std::move(*recording), direct->now());
    const auto b = replayed->snapshot();
    EXPECT_EQ(all_findings(*replayed), findings);
    ASSERT_NE(a->partitions, nullptr);
    ASSERT_NE(b->partitions, nullptr);
    EXPECT_EQ(*b->partitions, *a->partitions);
}

TEST(SimulatedCounters, ResetAndWrapKeepTheTotalMonotonic) {
    for (const char* name : {"counter-reset", "counter-wrap-16bit"}) {
        auto engine = engine::make_default_engine();
        const auto observations = play(name, *engine);
        uint64_t resets = 0, wraps = 0;
        for (const auto& d : engine->snapshot()->devices) {
            for (const auto& p : d.ports) {
                for (const auto& c : p.counters) {
                    resets += c.resets;
                    wraps += c.wraps;
                }
            }
        }
        if (std::string(name) == "counter-reset") {
            EXPECT_GE(resets, 1u) << name;
        } else {
            EXPECT_GE(wraps, 1u) << name;
        }
        // Totals never go backwards along the run.
        std::map<std::pair<std::string, std::string>, uint64_t> last;
        auto check = engine::make_default_engine();
        for (const auto& o : observations) {
            check->consume(o);
            if (const auto* c = std::get_if<CounterSample>(&o.body)) {
                const auto* st = check->inventory().counter(c->port, c->kind, c->name);
                ASSERT_NE(st, nullptr);
                auto& prev = last[{c->port.to_string(), c->name}];
                ASSERT_GE(st->total, prev) << name << " " << c->name;
                prev = st->total;
            }
        }
    }
}

}  // namespace
}  // namespace rdmadiag::replay
