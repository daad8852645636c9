#include "gui/client/engine_timeline.hpp"

#include <gtest/gtest.h>

#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

const TimePoint kStart = testing::at_seconds(0);

TEST(EngineTimeline, PlaysAScenarioToAnyPositionTheSameWay) {
    auto a = make_scenario_timeline("pkey-change-missed-event", kStart);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ((*a)->length(), std::chrono::seconds(90));
    EXPECT_EQ((*a)->description(), "scenario 'pkey-change-missed-event' (simulated fabric)");
    auto early = (*a)->seek(std::chrono::seconds(5));
    auto late = (*a)->seek(std::chrono::seconds(60));
    ASSERT_TRUE(early && late);
    EXPECT_EQ(late->time, kStart + std::chrono::seconds(60));
    const auto* port = late->find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(port, nullptr);
    const auto* dev = port->pkeys.find(PKeyView::device);
    ASSERT_NE(dev, nullptr);
    ASSERT_GT(dev->table.keys.size(), 4u);
    EXPECT_EQ(dev->table.keys[4], 0x8004);  // the change at 10s reached the device view
    const auto* early_dev = early->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::device);
    EXPECT_EQ(early_dev->table.keys[4], 0);

    // Back in time replays from the start and lands on the same state.
    auto again = (*a)->seek(std::chrono::seconds(5));
    EXPECT_EQ(again->devices, early->devices);
    auto b = make_scenario_timeline("pkey-change-missed-event", kStart);
    EXPECT_EQ((*b)->seek(std::chrono::seconds(60))->devices, late->devices);
}

TEST(EngineTimeline, ClampsToTheEnd) {
    auto t = make_scenario_timeline("mr-xprtrdma-stuck", kStart);
    ASSERT_TRUE(t.ok());
    auto s = (*t)->seek(std::chrono::hours(1));
    EXPECT_EQ(s->time, kStart + std::chrono::seconds(60));
}

TEST(EngineTimeline, UnknownScenarioSaysWhichExist) {
    auto t = make_scenario_timeline("no-such-scenario", kStart);
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("default"), std::string::npos) << t.error().message;
}

TEST(EngineTimeline, SourceThatCannotRunIsAnError) {
    class Endless final : public sources::Source {
    public:
        std::string_view name() const override { return "endless"; }
        sources::Availability availability() const override { return {true, ""}; }
    };
    auto t = EngineTimeline::create(
        []() -> Result<std::unique_ptr<sources::Source>> {
            return std::unique_ptr<sources::Source>(new Endless);
        },
        kStart, "endless");
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().message, "endless has no end to play to");
}

}  // namespace
}  // namespace rdmadiag::gui::client
