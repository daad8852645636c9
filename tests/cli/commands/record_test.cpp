// `rdmadiag record` of a shipped scenario is what serve would have seen: the recording holds
// exactly the observations the serve loop feeds its engine, in the same order, and replaying it
// reaches exactly the findings serve reaches.

#include <gtest/gtest.h>
#include <unistd.h>
#include <algorithm>

#include <cstdlib>
#include <filesystem>

#include "collector/builtin/builtin_sources.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/replay/recording_reader.hpp"
#include "collector/replay/replay_source.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/runtime/open_sources.hpp"
#include "collector/runtime/virtual_playback.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::cli::commands {
namespace {

constexpr const char* kStart = "2026-01-01T00:00:00Z";

struct Played {
    std::vector<Observation> seen;  // in the order the engine consumed them
    std::vector<Finding> findings;
    std::vector<Finding> history;
    TimePoint end;
};

common::Logger quiet() {
    return common::Logger(common::LogLevel::error, common::LogFormat::logfmt,
                          [](std::string_view) {});
}

Played collect(engine::Engine& engine, std::vector<Observation> seen, TimePoint end) {
    auto snap = engine.snapshot();
    return Played{std::move(seen), snap->findings, snap->finding_history, end};
}

// The serve loop as `rdmadiag serve --simulate=NAME` runs it, only on a ManualClock: wait until
// the next poll is due (at most max_wait), step, until the scenario's end. With `conf`, as
// `--partitions.conf conf` adds the partitions source.
Played serve(const std::string& scenario, const std::string& conf = "") {
    sources::SourceRegistry registry;
    builtin::register_builtin_sources(registry);
    runtime::CollectorSettings settings;
    settings.simulate = scenario;
    if (!conf.empty()) {
        settings.sources.extra["partitions.conf"] = conf;
        settings.source_switches["partitions"] = true;
    }
    auto opened = runtime::open_sources(registry, settings);
    EXPECT_TRUE(opened.ok());
    const TimePoint start = *parse_time(kStart);
    ManualClock clock(start);
    auto engine = engine::make_default_engine();
    publish::SnapshotStore store;
    auto log = quiet();
    std::vector<Observation> seen;
    runtime::RuntimeOptions options;
    options.on_observation = [&seen](const Observation& o) { seen.push_back(o); };
    runtime::CollectorRuntime rt(std::move(*opened), *engine, store, clock, log, options);
    rt.prepare();
    const TimePoint end = start + rt.playback_length().value_or(Duration::zero());
    for (;;) {
        clock.advance(rt.time_to_next_poll());
        if (clock.now() > end) break;
        rt.step();
        if (clock.now() == end) break;
    }
    return collect(*engine, std::move(seen), end);
}

// Replays a recording through the same loop (the replay source at real speed, on a ManualClock),
// and lets the engine's clock reach `end` as serve's did.
Played replay(replay::Recording recording, TimePoint end) {
    auto engine = engine::make_default_engine();
    publish::SnapshotStore store;
    auto log = quiet();
    std::vector<Observation> seen;
    runtime::RuntimeOptions options;
    options.on_observation = [&seen](const Observation& o) {
        if (o.source != "replay") seen.push_back(o);  // the replay source's own status
    };
    const TimePoint first = recording.observations.front().time;
    ManualClock clock(first);
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::make_unique<replay::ReplaySource>(std::move(recording),
                                                             replay::ReplaySettings{1.0, 4096}));
    runtime::CollectorRuntime rt(std::move(sources), *engine, store, clock, log, options);
    runtime::run_once(rt, clock);
    clock.set(end);
    rt.step();
    return collect(*engine, std::move(seen), end);
}

class RecordMatchesServe : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordMatchesServe, RecordingAndReplayAreWhatServeSaw) {
    const std::string scenario = GetParam();
    const test::TempDir dir("record");
    const std::string file = dir.file(scenario + ".jsonl");
    const std::string command = std::string(RDMADIAG_CLI) + " record --simulate=" + scenario +
                                " --clock.start=" + kStart + " " + file + " 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    auto recording = replay::read_recording_file(file);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    EXPECT_TRUE(recording->problems.empty());

    const Played served = serve(scenario);
    ASSERT_FALSE(served.seen.empty());
    ASSERT_EQ(recording->observations.size(), served.seen.size());
    for (size_t i = 0; i < served.seen.size(); ++i) {
        ASSERT_EQ(recording->observations[i], served.seen[i]) << "observation " << i;
    }

    const Played replayed = replay(std::move(*recording), served.end);
    EXPECT_EQ(replayed.seen, served.seen);
    EXPECT_EQ(replayed.findings, served.findings);
    EXPECT_EQ(replayed.history, served.history);
    EXPECT_FALSE(served.findings.empty() && served.history.empty()) << "a scenario with findings";
}

// The SM's partitions.conf is recorded as the text the engine read, so a replay reaches the same
// partition findings without the file.
TEST(RecordMatchesServe, APartitionsConfReplaysToTheSamePartitionFindings) {
    const std::string conf = ::rdmadiag::test::fixtures_dir() + "/partitions/sim-default.conf";
    const test::TempDir dir("record");
    const std::string file = dir.file("partitions.jsonl");
    const std::string command = std::string(RDMADIAG_CLI) + " record --simulate=default" +
                                " --partitions.conf " + conf + " --clock.start=" + kStart + " " +
                                file + " 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    auto recording = replay::read_recording_file(file);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    const Played served = serve("default", conf);
    ASSERT_EQ(recording->observations, served.seen);
    const Played replayed = replay(std::move(*recording), served.end);
    EXPECT_EQ(replayed.findings, served.findings);
    const auto partition_findings =
        std::count_if(served.findings.begin(), served.findings.end(),
                      [](const Finding& f) { return f.rule.starts_with("partition."); });
    EXPECT_EQ(partition_findings, 3) << "missing and mismatch in 0x0003, unexpected in 0x0002";
}

// `record --trace FILE` records what a saved trace holds, read whole in one round at the trace's
// own times; replayed, it reaches the MR findings `mrs --trace` shows.
TEST(RecordSavedTrace, RecordsTheTracesMrEventsAndReplaysToTheStuckMr) {
    const std::string fixtures = ::rdmadiag::test::fixtures_dir();
    const test::TempDir dir("record");
    const std::string file = dir.file("saved-trace.jsonl");
    const std::string command =
        std::string(RDMADIAG_CLI) + " record --path.sysfs " + fixtures + "/sysfs/mlx5-ib" +
        " --trace " + fixtures + "/tracefs/saved/xprtrdma-stuck.ftrace.txt" +
        " --source.opt tracefs.boot_time=2025-12-31T23:58:00Z --clock.start=" + kStart + " " +
        file + " 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    auto recording = replay::read_recording_file(file);
    ASSERT_TRUE(recording.ok()) << recording.error().message;
    EXPECT_EQ(recording->header.origin.rfind("rdmadiag record --trace ", 0), 0u)
        << recording->header.origin;
    size_t mr_events = 0;
    TimePoint last{};
    for (const auto& o : recording->observations) {
        if (std::holds_alternative<MrEvent>(o.body)) ++mr_events;
        last = std::max(last, o.time);
    }
    EXPECT_GT(mr_events, 0u);
    const Played replayed = replay(std::move(*recording), last);
    const auto stuck = std::find_if(replayed.findings.begin(), replayed.findings.end(),
                                    [](const Finding& f) { return f.subject.mr == 17u; });
    ASSERT_NE(stuck, replayed.findings.end());
    EXPECT_EQ(stuck->rule, "mr.needs_dereg");
}

TEST(RecordSavedTrace, ATraceThatCannotBeReadEndsTheCommand) {
    const test::TempDir dir("record");
    const std::string file = dir.file("no-trace.jsonl");
    const std::string command = std::string(RDMADIAG_CLI) +
                                " record --trace /nonexistent/rdmadiag-trace.txt " + file +
                                " 2>/dev/null";
    const int status = std::system(command.c_str());
    EXPECT_NE(status, 0);
}

INSTANTIATE_TEST_SUITE_P(ShippedScenarios, RecordMatchesServe,
                         ::testing::Values("pkey-late-event", "pkey-change-missed-event",
                                           "pkey-index-moved", "mr-xprtrdma-stuck"),
                         [](const auto& param_info) {
                             std::string n = param_info.param;
                             for (auto& c : n) {
                                 if (c == '-') c = '_';
                             }
                             return n;
                         });

}  // namespace
}  // namespace rdmadiag::cli::commands
