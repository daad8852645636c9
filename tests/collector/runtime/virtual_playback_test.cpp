#include "collector/runtime/virtual_playback.hpp"

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"
#include "tests/collector/runtime/test_sources.hpp"

namespace rdmadiag::runtime {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::ScriptedSource;

const TimePoint kStart{seconds(1'700'000'000)};

// A polled source with an end, like the simulated fabric or a recording.
class FiniteSource final : public sources::Source {
public:
    explicit FiniteSource(Duration length) : length_(length) {}
    std::string_view name() const override { return "finite"; }
    sources::Availability availability() const override { return {true, ""}; }
    Duration poll_interval() const override { return seconds(1); }
    void poll(TimePoint now, sources::ObservationSink&) override { polls.push_back(now); }
    std::optional<Duration> playback_length() const override { return length_; }
    std::vector<TimePoint> polls;

private:
    Duration length_;
};

struct PlaybackFixture {
    ManualClock clock{kStart};
    common::Logger log{common::LogLevel::error, common::LogFormat::logfmt, [](std::string_view) {}};
    std::unique_ptr<engine::Engine> engine = engine::make_default_engine();
    publish::SnapshotStore store;
};

TEST(VirtualPlayback, PollsOnTheGridWithoutSleepingAndOnceMoreAtTheEnd) {
    PlaybackFixture f;
    auto src = std::make_unique<FiniteSource>(milliseconds(2500));
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    play_until(rt, f.clock, kStart + milliseconds(2500));
    EXPECT_EQ(raw->polls, (std::vector<TimePoint>{kStart, kStart + seconds(1), kStart + seconds(2),
                                                  kStart + milliseconds(2500)}));
    EXPECT_EQ(f.clock.now(), kStart + milliseconds(2500));
    EXPECT_EQ(f.store.latest()->time, kStart + milliseconds(2500));
}

TEST(VirtualPlayback, ADayPlaysWithoutWaitingForIt) {
    // Waiting in real time would run into the test's timeout long before the day is over.
    PlaybackFixture f;
    auto src = std::make_unique<FiniteSource>(std::chrono::hours(24));
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    play_until(rt, f.clock, kStart + std::chrono::hours(24));
    ASSERT_EQ(raw->polls.size(), 86'401u);
    EXPECT_EQ(raw->polls.back(), kStart + std::chrono::hours(24));
    EXPECT_EQ(f.store.latest()->time, kStart + std::chrono::hours(24));
}

TEST(VirtualPlayback, SeekingOnlyAdvancesBetweenGridPolls) {
    PlaybackFixture f;
    auto src = std::make_unique<FiniteSource>(seconds(10));
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    play_until(rt, f.clock, kStart + milliseconds(1500), AtEnd::advance);
    EXPECT_EQ(raw->polls, (std::vector<TimePoint>{kStart, kStart + seconds(1)}));
    play_until(rt, f.clock, kStart + seconds(3), AtEnd::advance);
    EXPECT_EQ(raw->polls.size(), 4u);
    EXPECT_EQ(raw->polls.back(), kStart + seconds(3));
}

TEST(VirtualPlayback, RunOncePlaysATimelineToItsEnd) {
    PlaybackFixture f;
    auto src = std::make_unique<FiniteSource>(seconds(3));
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    run_once(rt, f.clock);
    EXPECT_EQ(raw->polls.size(), 4u);
    EXPECT_EQ(f.clock.now(), kStart + seconds(3));
}

TEST(VirtualPlayback, RunOnceSamplesLiveSourcesOnce) {
    PlaybackFixture f;
    auto src = std::make_unique<ScriptedSource>(
        "sysfs", seconds(1), [](TimePoint) { return std::vector<ObservationBody>{}; });
    auto* raw = src.get();
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(src));
    sources.push_back(std::make_unique<FiniteSource>(seconds(3)));
    CollectorRuntime rt(std::move(sources), *f.engine, f.store, f.clock, f.log);
    EXPECT_EQ(rt.playback_length(), std::nullopt);  // one source runs live
    run_once(rt, f.clock);
    EXPECT_EQ(raw->polls, 1);
    EXPECT_EQ(f.clock.now(), kStart);
}

}  // namespace
}  // namespace rdmadiag::runtime
