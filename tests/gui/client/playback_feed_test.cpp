#include "gui/client/playback_feed.hpp"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include "gui/client/engine_timeline.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

std::unique_ptr<PlaybackFeed> scenario_feed(const std::string& name) {
    auto t = make_scenario_timeline(name, testing::at_seconds(0));
    EXPECT_TRUE(t.ok());
    return std::make_unique<PlaybackFeed>(std::move(*t));
}

TEST(PlaybackFeed, SeekDeliversTheSnapshotAtThatPosition) {
    auto feed = scenario_feed("mr-xprtrdma-stuck");
    std::vector<SnapshotPtr> got;
    QObject::connect(feed.get(), &SnapshotFeed::snapshotReady,
                     [&](SnapshotPtr s) { got.push_back(s); });
    QSignalSpy positions(feed.get(), &PlaybackFeed::positionChanged);
    feed->seek(std::chrono::seconds(30));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got.back()->time, testing::at_seconds(30));
    ASSERT_EQ(positions.count(), 1);
    EXPECT_EQ(positions.at(0).at(0).toLongLong(), 30000);
    EXPECT_EQ(positions.at(0).at(1).toLongLong(), 60000);
    EXPECT_FALSE(feed->playing());
    EXPECT_TRUE(feed->status_text().contains(QStringLiteral("paused at 30 s of 60 s")))
        << feed->status_text().toStdString();
}

TEST(PlaybackFeed, PlaysForwardAtItsSpeedAndStopsAtTheEnd) {
    auto feed = scenario_feed("mr-xprtrdma-stuck");
    feed->set_tick(std::chrono::milliseconds(10));
    feed->set_speed(1000);  // 10 s of scenario per tick
    QSignalSpy playing(feed.get(), &PlaybackFeed::playingChanged);
    feed->start();
    EXPECT_TRUE(feed->playing());
    while (feed->playing()) ASSERT_TRUE(playing.wait(5000));
    EXPECT_EQ(feed->position(), std::chrono::seconds(60));
    EXPECT_EQ(playing.count(), 2);
    // Play again from the end starts over.
    feed->play();
    EXPECT_EQ(feed->position(), Duration::zero());
    feed->pause();
    EXPECT_FALSE(feed->playing());
}

}  // namespace
}  // namespace rdmadiag::gui::client
