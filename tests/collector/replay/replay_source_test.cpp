#include "collector/replay/replay_source.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::replay {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

Recording ten_seconds() {
    Recording r;
    for (int s = 0; s < 10; ++s) {
        r.observations.push_back(
            Observation{TimePoint{seconds(1000 + s)}, "sysfs", DeviceList{{"mlx5_0"}}});
    }
    return r;
}

TEST(ReplaySource, PlaysAtTheGivenSpeedKeepingRecordedTimes) {
    ReplaySource src(ten_seconds(), ReplaySettings{2.0, 4096});
    sources::VectorSink sink;
    const TimePoint wall{seconds(5)};
    src.poll(wall, sink);
    ASSERT_EQ(sink.observations.size(), 1u);  // the first is due at once
    EXPECT_EQ(sink.observations[0].time, TimePoint{seconds(1000)});
    EXPECT_EQ(src.next_due(), wall + milliseconds(500));
    src.poll(wall + milliseconds(499), sink);
    EXPECT_EQ(sink.observations.size(), 1u);
    src.poll(wall + milliseconds(500), sink);
    EXPECT_EQ(sink.observations.size(), 2u);
    src.poll(wall + seconds(2), sink);  // 4 recorded seconds at speed 2
    EXPECT_EQ(sink.observations.size(), 5u);
    EXPECT_EQ(sink.observations.back().time, TimePoint{seconds(1004)});
    src.poll(wall + seconds(60), sink);
    EXPECT_EQ(sink.observations.size(), 10u);
    EXPECT_TRUE(src.finished());
    EXPECT_FALSE(src.next_due().has_value());
}

TEST(ReplaySource, PlaybackLengthIsTheRecordedSpanOverTheSpeed) {
    EXPECT_EQ(ReplaySource(ten_seconds(), ReplaySettings{1.0, 4096}).playback_length(),
              Duration{seconds(9)});
    EXPECT_EQ(ReplaySource(ten_seconds(), ReplaySettings{2.0, 4096}).playback_length(),
              Duration{milliseconds(4500)});
    EXPECT_FALSE(ReplaySource(ten_seconds(), ReplaySettings{0, 4096}).playback_length());
    EXPECT_FALSE(ReplaySource(Recording{}, ReplaySettings{}).playback_length());
    // Polled on a clock that starts at the first observation, speed 1 hands each over at its
    // recorded time and the last one at the end of the length.
    ReplaySource src(ten_seconds(), ReplaySettings{1.0, 4096});
    sources::VectorSink sink;
    const TimePoint first{seconds(1000)};
    src.poll(first, sink);
    src.poll(first + seconds(3), sink);
    ASSERT_EQ(sink.observations.size(), 4u);
    EXPECT_EQ(sink.observations.back().time, first + seconds(3));
    src.poll(first + *src.playback_length(), sink);
    EXPECT_TRUE(src.finished());
}

TEST(ReplaySource, AsFastAsPossibleHandsOverBatches) {
    ReplaySource src(ten_seconds(), ReplaySettings{0, 4});
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    EXPECT_EQ(sink.observations.size(), 4u);
    src.poll(TimePoint{}, sink);
    src.poll(TimePoint{}, sink);
    EXPECT_EQ(sink.observations.size(), 10u);
    EXPECT_TRUE(src.finished());
    EXPECT_EQ(src.poll_interval(), Duration{1});
}

TEST(ReplaySource, EmptyRecordingIsUnavailableWithAReason) {
    ReplaySource src(Recording{}, ReplaySettings{});
    EXPECT_FALSE(src.availability().available);
    EXPECT_NE(src.availability().reason.find("no observations"), std::string::npos);
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    EXPECT_TRUE(sink.observations.empty());
}

}  // namespace
}  // namespace rdmadiag::replay
