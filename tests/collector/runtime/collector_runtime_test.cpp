#include "collector/runtime/collector_runtime.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "collector/engine/default/default_engine.hpp"
#include "tests/collector/runtime/test_sources.hpp"

namespace rdmadiag::runtime {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::PipeEventSource;
using testing::ScriptedSource;

struct Fixture {
    ManualClock clock{TimePoint{seconds(1'700'000'000)}};
    std::vector<std::string> lines;
    common::Logger log{common::LogLevel::debug, common::LogFormat::logfmt,
                       [this](std::string_view l) { lines.emplace_back(l); }, &clock};
    std::unique_ptr<engine::Engine> engine = engine::make_default_engine();
    publish::SnapshotStore store;
};

std::vector<ObservationBody> port_state(PortState state) {
    PortStateSample s;
    s.port = PortRef{"mlx5_0", 1};
    s.state = state;
    return {DeviceInfo{"mlx5_0"}, s};
}

TEST(CollectorRuntime, PollsOnScheduleFeedsTheEngineAndPublishes) {
    Fixture f;
    auto src = std::make_unique<ScriptedSource>(
        "sysfs", seconds(1), [](TimePoint) { return port_state(PortState::active); });
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.step();
    EXPECT_EQ(raw->polls, 1);
    auto snap = f.store.latest();
    ASSERT_EQ(snap->devices.size(), 1u);
    ASSERT_EQ(snap->devices[0].ports.size(), 1u);
    EXPECT_EQ(snap->devices[0].ports[0].info.state, PortState::active);
    ASSERT_EQ(snap->sources.size(), 1u);
    EXPECT_TRUE(snap->sources[0].up);

    f.clock.advance(milliseconds(400));
    rt.step();
    EXPECT_EQ(raw->polls, 1);  // not due yet
    EXPECT_EQ(rt.time_to_next_poll(), milliseconds(600));
    f.clock.advance(milliseconds(600));
    rt.step();
    EXPECT_EQ(raw->polls, 2);
    EXPECT_EQ(rt.stats().sources[0].polls, 2u);
    EXPECT_EQ(rt.stats().sources[0].last_observations, 2u);
    // The start's (sources up) and the first poll's: the second poll read what the first did.
    EXPECT_EQ(f.store.publications(), 2u);
}

TEST(CollectorRuntime, ARoundThatReadsNothingNewKeepsTheSnapshotUntilItIsOld) {
    Fixture f;
    PortState state = PortState::active;
    auto src = std::make_unique<ScriptedSource>("sysfs", seconds(1),
                                                [&](TimePoint) { return port_state(state); });
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    RuntimeOptions options;
    options.reading_times_refresh = seconds(5);
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log, options);
    rt.step();
    const auto first = f.store.latest();
    for (int i = 0; i < 3; ++i) {
        f.clock.advance(seconds(1));
        rt.step();
    }
    EXPECT_EQ(f.store.latest(), first) << "the same readings published again";

    // A new value is published by the round that read it.
    state = PortState::down;
    f.clock.advance(seconds(1));
    rt.step();
    const auto changed = f.store.latest();
    ASSERT_NE(changed, first);
    EXPECT_EQ(changed->devices[0].ports[0].info.state, PortState::down);
    EXPECT_EQ(changed->time, f.clock.now());

    // Nothing new again: the times things were read are brought up to date once the last
    // snapshot is as old as the refresh.
    for (int i = 0; i < 4; ++i) {
        f.clock.advance(seconds(1));
        rt.step();
        EXPECT_EQ(f.store.latest(), changed);
    }
    f.clock.advance(seconds(1));
    rt.step();
    const auto refreshed = f.store.latest();
    ASSERT_NE(refreshed, changed);
    EXPECT_EQ(refreshed->time, f.clock.now());
    EXPECT_EQ(refreshed->devices[0].ports[0].updated, f.clock.now());
    EXPECT_EQ(refreshed->devices[0].revision, changed->devices[0].revision);

    // publish_current() leaves the state as it is now, read times included.
    f.clock.advance(seconds(1));
    rt.step();
    EXPECT_EQ(f.store.latest(), refreshed);
    rt.publish_current();
    EXPECT_EQ(f.store.latest()->time, f.clock.now());
}

// The loop sleeps until the earliest due poll, never on a fixed short tick, and one round runs
// every source due at that tick.
TEST(CollectorRuntime, SleepsUntilTheNextDuePollAndRunsEverySourceDueThenInOneRound) {
    Fixture f;
    auto none = [](TimePoint) { return std::vector<ObservationBody>{}; };
    auto fast = std::make_unique<ScriptedSource>("fast", seconds(1), none);
    auto slow = std::make_unique<ScriptedSource>("slow", seconds(15), none);
    auto odd = std::make_unique<ScriptedSource>("odd", milliseconds(2500), none);
    auto *fast_raw = fast.get(), *slow_raw = slow.get(), *odd_raw = odd.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(fast));
    sources.push_back(std::move(slow));
    sources.push_back(std::move(odd));
    RuntimeOptions options;
    options.max_wait = seconds(30);  // only the polls decide when the loop wakes here
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log, options);
    const TimePoint start = f.clock.now();
    rt.step();
    uint64_t rounds = 1;
    while (f.clock.now() < start + seconds(30)) {
        const Duration sleep = rt.time_to_next_poll();
        EXPECT_EQ(sleep, seconds(1));  // the fast tier's next tick, whatever else is scheduled
        f.clock.advance(sleep);
        rt.step();
        ++rounds;
    }
    EXPECT_EQ(rounds, 31u);
    EXPECT_EQ(rt.stats().loop_iterations, rounds);
    EXPECT_EQ(fast_raw->polls, 31);
    EXPECT_EQ(slow_raw->polls, 3);  // 0, 15, 30
    EXPECT_EQ(odd_raw->polls, 13);  // 0, 2.5 .. 30 s, each taken at a fast tick
    for (TimePoint t : odd_raw->poll_times) EXPECT_EQ((t - start) % seconds(1), Duration::zero());
}

TEST(CollectorRuntime, WithOnlySlowSourcesTheLoopSleepsUntilTheirTimeOrMaxWait) {
    Fixture f;
    auto none = [](TimePoint) { return std::vector<ObservationBody>{}; };
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::make_unique<ScriptedSource>("slow", seconds(15), none));
    RuntimeOptions options;
    options.max_wait = seconds(60);
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log, options);
    rt.step();
    EXPECT_EQ(rt.time_to_next_poll(), seconds(15));
    f.clock.advance(seconds(4));
    EXPECT_EQ(rt.time_to_next_poll(), seconds(11));
}

TEST(CollectorRuntime, AnUnavailableSourceIsDownWithItsReasonAndNeverPolled) {
    Fixture f;
    auto src = std::make_unique<ScriptedSource>(
        "tracefs", seconds(1), [](TimePoint) { return port_state(PortState::down); });
    src->availability_ = {false, "tracefs is not mounted"};
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.step();
    f.clock.advance(seconds(5));
    rt.step();
    EXPECT_EQ(raw->polls, 0);
    auto snap = f.store.latest();
    ASSERT_EQ(snap->sources.size(), 1u);
    EXPECT_FALSE(snap->sources[0].up);
    EXPECT_EQ(snap->sources[0].reason, "tracefs is not mounted");
    EXPECT_NE(f.lines[0].find("reason=\"tracefs is not mounted\""), std::string::npos);
}

TEST(CollectorRuntime, AThrowingSourceCostsOnlyItself) {
    Fixture f;
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::make_unique<ScriptedSource>(
        "broken", seconds(1),
        [](TimePoint) -> std::vector<ObservationBody> { throw std::runtime_error("boom"); }));
    sources.push_back(std::make_unique<ScriptedSource>(
        "good", seconds(1), [](TimePoint) { return port_state(PortState::active); }));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.step();
    auto snap = f.store.latest();
    EXPECT_EQ(snap->devices.size(), 1u);
    ASSERT_FALSE(snap->errors.empty());
    EXPECT_EQ(snap->errors.back().error.message, "boom");
}

TEST(CollectorRuntime, AThrowingSourceIsReportedDownWithTheReasonAndUpOnceItRecovers) {
    Fixture f;
    bool fail = true;
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::make_unique<ScriptedSource>(
        "broken", seconds(1), [&fail](TimePoint) -> std::vector<ObservationBody> {
            if (fail) throw std::runtime_error("device vanished");
            return {};
        }));
    sources.push_back(std::make_unique<ScriptedSource>(
        "good", seconds(1), [](TimePoint) { return port_state(PortState::active); }));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.step();
    auto snap = f.store.latest();
    ASSERT_EQ(snap->sources.size(), 2u);
    const auto* broken = &snap->sources[0];
    EXPECT_EQ(broken->name, "broken");
    EXPECT_FALSE(broken->up);
    EXPECT_EQ(broken->reason, "device vanished");
    EXPECT_TRUE(snap->sources[1].up);
    EXPECT_EQ(rt.up_sources(), std::vector<std::string>{"good"});
    ASSERT_EQ(rt.down_sources().size(), 1u);
    EXPECT_EQ(rt.down_sources()[0].reason, "device vanished");

    // Still down at the next failure (one SourceStatus, not one per poll), up after a good poll.
    f.clock.advance(seconds(1));
    rt.step();
    EXPECT_EQ(rt.down_sources().size(), 1u);
    fail = false;
    f.clock.advance(seconds(1));
    rt.step();
    snap = f.store.latest();
    EXPECT_TRUE(snap->sources[0].up);
    EXPECT_EQ(rt.up_sources(), (std::vector<std::string>{"broken", "good"}));
}

TEST(CollectorRuntime, EachRoundReachesTheEngineSortedStablyByTime) {
    Fixture f;
    const TimePoint now = f.clock.now();
    // Emitted out of time order, with ties: the engine must see them by time, ties as emitted.
    auto src = std::make_unique<ScriptedSource>(
        "sysfs", seconds(1), [](TimePoint) { return std::vector<ObservationBody>{}; });
    struct Unordered final : sources::Source {
        TimePoint base;
        std::string_view name() const override { return "unordered"; }
        sources::Availability availability() const override { return {true, ""}; }
        Duration poll_interval() const override { return seconds(1); }
        void poll(TimePoint, sources::ObservationSink& sink) override {
            sink.emit(Observation{base + milliseconds(30), "unordered", DeviceInfo{"c"}});
            sink.emit(Observation{base + milliseconds(10), "unordered", DeviceInfo{"a"}});
            sink.emit(Observation{base + milliseconds(30), "unordered", DeviceInfo{"d"}});
            sink.emit(Observation{base + milliseconds(10), "unordered", DeviceInfo{"b"}});
        }
    };
    auto unordered = std::make_unique<Unordered>();
    unordered->base = now - seconds(1);
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    sources.push_back(std::move(unordered));
    std::vector<std::string> seen;
    RuntimeOptions options;
    options.on_observation = [&seen](const Observation& o) {
        if (const auto* d = std::get_if<DeviceInfo>(&o.body)) seen.push_back(d->device);
    };
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log, options);
    rt.step();
    EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(CollectorRuntime, DownSourcesFromOpeningAreReportedDown) {
    Fixture f;
    OpenedSources opened;
    opened.sources.push_back(std::make_unique<ScriptedSource>(
        "sysfs", seconds(1), [](TimePoint) { return port_state(PortState::active); }));
    opened.down.push_back(DownSource{"mad", "libibumad: no umad device"});
    CollectorRuntime rt(std::move(opened), *f.engine, f.store, f.clock, f.log);
    rt.step();
    auto snap = f.store.latest();
    ASSERT_EQ(snap->sources.size(), 2u);
    EXPECT_EQ(snap->sources[0].name, "mad");
    EXPECT_FALSE(snap->sources[0].up);
    EXPECT_EQ(snap->sources[0].reason, "libibumad: no umad device");
    EXPECT_TRUE(snap->sources[1].up);
}

TEST(CollectorRuntime, EventDescriptorsAreReadWhenReady) {
    Fixture f;
    auto src = std::make_unique<PipeEventSource>();
    int w = src->write_end();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.prepare();
    ASSERT_EQ(::write(w, "\n\n", 2), 2);
    rt.step({0});
    auto snap = f.store.latest();
    ASSERT_EQ(snap->events.size(), 2u);
    EXPECT_EQ(snap->events[0].event.type, AsyncEventType::pkey_change);
    ASSERT_EQ(snap->event_totals.size(), 1u);
    EXPECT_EQ(snap->event_totals[0].count, 2u);
}

TEST(CollectorRuntime, ADescriptorHandedOutAfterThePollIsWatchedFromThen) {
    Fixture f;
    auto src = std::make_unique<PipeEventSource>();
    src->opens_on_first_poll = true;
    int w = src->write_end();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.prepare();
    ASSERT_EQ(::write(w, "\n", 1), 1);
    rt.step({0});  // not watched yet: tag 0 names nothing, but the first poll runs
    EXPECT_TRUE(f.store.latest()->events.empty());
    rt.step({0});  // watched since that poll
    ASSERT_EQ(f.store.latest()->events.size(), 1u);
    f.clock.advance(seconds(1));
    rt.step();  // polled again: the same descriptor is not added twice (epoll would refuse)
    ASSERT_EQ(::write(w, "\n", 1), 1);
    rt.step({0});
    EXPECT_EQ(f.store.latest()->events.size(), 2u);
    for (const auto& line : f.lines) EXPECT_EQ(line.find("cannot watch"), std::string::npos);
}

TEST(CollectorRuntime, UnknownReadyTagsAreIgnored) {
    Fixture f;
    CollectorRuntime rt(std::vector<std::unique_ptr<sources::Source>>{}, *f.engine, f.store,
                        f.clock, f.log);
    rt.step({42});
    EXPECT_EQ(f.store.latest()->sequence, f.engine->snapshot()->sequence);
}

// An engine module that asks for a refresh of the port of every PKEY_CHANGE it sees, the way the
// P_Key rules do.
class RefreshOnPKeyChange final : public engine::EngineModule {
public:
    void observe(const Observation& obs, engine::EngineContext& ctx) override {
        if (const auto* e = std::get_if<AsyncEvent>(&obs.body); e && e->port)
            ctx.request_refresh(PortRef{e->device, *e->port});
    }
    void contribute(Snapshot&) const override {}
};

TEST(CollectorRuntime, RoutesRefreshRequestsToEverySource) {
    Fixture f;
    f.engine->add_module(std::make_unique<RefreshOnPKeyChange>());
    auto events = std::make_unique<PipeEventSource>();
    int w = events->write_end();
    auto polled = std::make_unique<ScriptedSource>(
        "sysfs", seconds(10), [](TimePoint) { return std::vector<ObservationBody>{}; });
    polled->on_refresh = [](const PortRef& port) {
        PKeyTableSample s;
        s.port = port;
        s.table.keys = {0xffff, 0x8001};
        return std::vector<ObservationBody>{s};
    };
    auto* raw = polled.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(events));
    sources.push_back(std::move(polled));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.prepare();
    ASSERT_EQ(::write(w, "\n\n", 2), 2);  // two events for one port: one refresh
    rt.step({0});
    ASSERT_EQ(raw->refreshed.size(), 1u);
    EXPECT_EQ(raw->refreshed[0], (PortRef{"mlx5_0", 1}));
    auto snap = f.store.latest();
    const auto* port = snap->find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(port, nullptr);
    ASSERT_NE(port->pkeys.find(PKeyView::device), nullptr);
    EXPECT_EQ(port->pkeys.find(PKeyView::device)->table.keys.size(), 2u);
}

TEST(CollectorRuntime, RefreshLoopsAreBounded) {
    Fixture f;
    // Every refresh yields another PKEY_CHANGE, which asks for another refresh.
    f.engine->add_module(std::make_unique<RefreshOnPKeyChange>());
    auto src = std::make_unique<ScriptedSource>("loop", seconds(1), [](TimePoint) {
        return std::vector<ObservationBody>{
            AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}}};
    });
    src->on_refresh = [](const PortRef&) {
        return std::vector<ObservationBody>{
            AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}}};
    };
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    RuntimeOptions options;
    options.max_refresh_rounds = 3;
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log, options);
    rt.step();
    EXPECT_EQ(raw->refreshed.size(), 3u);
}

TEST(CollectorRuntime, StartAndStopRunTheLoopOnItsOwnThread) {
    Fixture f;
    SystemClock clock;
    auto src = std::make_unique<ScriptedSource>(
        "sysfs", milliseconds(10), [](TimePoint) { return port_state(PortState::active); });
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, clock, f.log);
    rt.start();
    EXPECT_TRUE(rt.running());
    // The first round publishes synchronously in start(); the store is never empty after it.
    EXPECT_GE(f.store.publications(), 1u);
    rt.stop();
    EXPECT_FALSE(rt.running());
    rt.stop();  // idempotent
}

TEST(CollectorRuntime, RefreshRequestsForOnePortAreRoutedOnce) {
    Fixture f;
    f.engine->add_module(std::make_unique<RefreshOnPKeyChange>());
    // Three PKEY_CHANGEs for one port and one for another in one round: two refreshes.
    auto src = std::make_unique<ScriptedSource>("verbs", seconds(1), [](TimePoint) {
        return std::vector<ObservationBody>{
            AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}},
            AsyncEvent{"mlx5_1", 1, AsyncEventType::pkey_change, {}},
            AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}},
            AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}}};
    });
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    rt.step();
    EXPECT_EQ(raw->refreshed, (std::vector<PortRef>{PortRef{"mlx5_0", 1}, PortRef{"mlx5_1", 1}}));
    EXPECT_EQ(rt.stats().sources[0].refreshes, 2u);
}

}  // namespace
}  // namespace rdmadiag::runtime
