#include "gui/client/snapshot_recording.hpp"

#include <gtest/gtest.h>

#include "collector/json/snapshot_json.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

TEST(SnapshotRecording, OneSavedApiAnswer) {
    const std::string text =
        testing::read_text(testing::api_fixture_path("pkey-change-missed-event-60s.json"));
    auto rec = parse_snapshot_recording(text);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    ASSERT_EQ(rec->snapshots.size(), 1u);
    EXPECT_EQ(rec->skipped, 0u);
    SnapshotTimeline t(std::move(*rec), "recording");
    EXPECT_EQ(t.length(), Duration::zero());
    EXPECT_NE(t.seek(std::chrono::seconds(3)), nullptr);
}

TEST(SnapshotRecording, JsonLinesSkipBadLinesAndSeekByTime) {
    Snapshot a = testing::trouble_snapshot();
    Snapshot b = a;
    b.sequence = 43;
    b.time = a.time + std::chrono::seconds(10);
    std::string text = codec::snapshot_to_json(b).dump() + "\n" + "{\"truncated\": \n" + "\n" +
                       codec::snapshot_to_json(a).dump() + "\n";
    auto rec = parse_snapshot_recording(text);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    EXPECT_EQ(rec->snapshots.size(), 2u);
    EXPECT_EQ(rec->skipped, 1u);
    EXPECT_EQ(rec->first_error.rfind("line 2: ", 0), 0u) << rec->first_error;
    SnapshotTimeline t(std::move(*rec), "recording");
    EXPECT_EQ(t.length(), std::chrono::seconds(10));
    EXPECT_EQ(t.seek(std::chrono::seconds(0))->sequence, 42u);  // sorted by time
    EXPECT_EQ(t.seek(std::chrono::seconds(9))->sequence, 42u);
    EXPECT_EQ(t.seek(std::chrono::seconds(10))->sequence, 43u);
    EXPECT_EQ(t.seek(-std::chrono::seconds(10))->sequence, 42u);
}

TEST(SnapshotRecording, NothingUsableIsAnError) {
    auto rec = parse_snapshot_recording("garbage\n{}\n");
    ASSERT_FALSE(rec.ok());
    EXPECT_NE(rec.error().message.find("no snapshot in the recording (line 1: "), std::string::npos)
        << rec.error().message;
    EXPECT_FALSE(parse_snapshot_recording("").ok());
}

}  // namespace
}  // namespace rdmadiag::gui::client
