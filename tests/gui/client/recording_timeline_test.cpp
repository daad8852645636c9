#include "gui/client/recording_timeline.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "collector/engine/default/default_engine.hpp"
#include "gui/client/gui_options.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/client/recording_kind.hpp"
#include "tests/gui/test_snapshots.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::gui::client {
namespace {

std::string recording_path(const std::string& name) {
    return ::rdmadiag::test::fixtures_dir() + "/recordings/" + name;
}

std::set<std::pair<std::string, std::string>> active(const Snapshot& s) {
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& f : s.findings) out.emplace(f.rule, f.subject.to_string());
    return out;
}

TEST(RecordingKind, ToldByTheFirstLineNotTheName) {
    EXPECT_EQ(detect_recording_kind(
                  testing::read_text(recording_path("sim-pkey-change-missed-event.jsonl"))),
              RecordingKind::observations);
    EXPECT_EQ(detect_recording_kind("\n  \n{\"format\":\"rdmadiag-recording\",\"version\":9}\n"),
              RecordingKind::observations);  // the reader says what is wrong with version 9
    EXPECT_EQ(
        detect_recording_kind(testing::read_text(testing::api_fixture_path("default-70s.json"))),
        RecordingKind::snapshots);
    EXPECT_EQ(detect_recording_kind("{\"format\":\"something-else\"}\n"), RecordingKind::snapshots);
    EXPECT_EQ(detect_recording_kind("not json\n"), RecordingKind::snapshots);
    EXPECT_EQ(detect_recording_kind(""), RecordingKind::snapshots);
}

// Played to its end, the timeline reaches what the engine reaches when it is handed every
// observation of the recording in order (what `rdmadiag replay` does).
TEST(RecordingTimeline, ReachesWhatTheEngineReachesFromTheSameObservations) {
    const std::string path = recording_path("sim-pkey-change-missed-event.jsonl");
    auto rec = replay::read_recording_file(path);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    ASSERT_FALSE(rec->observations.empty());
    const TimePoint first = rec->observations.front().time;
    const TimePoint last = rec->observations.back().time;

    auto direct = engine::make_default_engine();
    for (const auto& o : rec->observations) direct->consume(o);
    direct->advance(last);
    const auto expected = direct->snapshot();

    auto timeline = make_recording_timeline(std::move(*rec), path);
    ASSERT_TRUE(timeline.ok()) << timeline.error().message;
    EXPECT_EQ((*timeline)->length(), last - first);
    EXPECT_EQ((*timeline)->description(),
              "recording " + path + " (rdmadiag record --simulate=pkey-change-missed-event)");
    auto end = (*timeline)->seek((*timeline)->length());
    ASSERT_TRUE(end);
    EXPECT_EQ(end->time, last);
    EXPECT_EQ(active(*end), active(*expected));
    EXPECT_TRUE(active(*end).contains({"pkey.cache_stale", "mlx5_0:1"}));
    const auto* port = end->find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(port, nullptr);
    EXPECT_EQ(port->pkeys, expected->find_port(PortRef{"mlx5_0", 1})->pkeys);
    EXPECT_EQ(port->pkeys.cache, CacheJudgement::stale);

    // Before the change at 10s nothing is wrong; going back replays from the start.
    auto early = (*timeline)->seek(std::chrono::seconds(5));
    EXPECT_EQ(early->time, first + std::chrono::seconds(5));
    EXPECT_FALSE(active(*early).contains({"pkey.cache_stale", "mlx5_0:1"}));
    EXPECT_EQ(early->find_port(PortRef{"mlx5_0", 1})->pkeys.cache, CacheJudgement::coherent);
}

TEST(RecordingTimeline, SkippedLinesAreCountedAndABadHeaderFails) {
    const std::string malformed = recording_path("malformed.jsonl");
    auto t = make_recording_timeline(testing::read_text(malformed), malformed);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_NE((*t)->description().find("lines skipped"), std::string::npos) << (*t)->description();

    auto future = make_recording_timeline(
        std::string_view("{\"format\":\"rdmadiag-recording\",\"version\":9}\n"), "future.jsonl");
    ASSERT_FALSE(future.ok());
    EXPECT_NE(future.error().message.find("version 9"), std::string::npos)
        << future.error().message;

    auto empty = make_recording_timeline(
        std::string_view("{\"format\":\"rdmadiag-recording\",\"version\":1}\n"), "empty.jsonl");
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("no observations"), std::string::npos)
        << empty.error().message;
}

// `rdmadiag-gui RECORDING` replays an observation recording through the engine whatever the
// file is called, and still shows saved snapshots as they are.
TEST(RecordingTimeline, MakeFeedTellsTheKindByContent) {
    const test::TempDir dir("gui-recording");
    const std::string renamed = dir.file("capture.json");
    {
        std::ofstream out(renamed, std::ios::binary);
        out << testing::read_text(recording_path("sim-pkey-change-missed-event.jsonl"));
    }
    auto options = parse_gui_options(QStringList{QString::fromStdString(renamed)});
    ASSERT_TRUE(options.ok());
    EXPECT_EQ(options->mode, GuiOptions::Mode::recording);
    auto feed = make_feed(*options);
    ASSERT_TRUE(feed.ok()) << feed.error().message;
    auto* playback = qobject_cast<PlaybackFeed*>(*feed);
    ASSERT_NE(playback, nullptr);
    EXPECT_TRUE(playback->description().startsWith(QString::fromStdString("recording " + renamed)))
        << playback->description().toStdString();
    delete *feed;

    options->target = testing::api_fixture_path("default-70s.json");
    feed = make_feed(*options);
    ASSERT_TRUE(feed.ok()) << feed.error().message;
    EXPECT_TRUE((*feed)->description().startsWith(QStringLiteral("saved snapshots ")))
        << (*feed)->description().toStdString();
    delete *feed;
}

}  // namespace
}  // namespace rdmadiag::gui::client
