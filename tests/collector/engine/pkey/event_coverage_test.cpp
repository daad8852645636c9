#include "collector/engine/pkey/event_coverage.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::engine::pkey {
namespace {

SourceStatus up_with(std::vector<EventCoverage> c) {
    SourceStatus s;
    s.up = true;
    s.event_coverage = std::move(c);
    return s;
}

TEST(EventCoverage, EmptyPortListCoversEveryPort) {
    EventCoverageMap m;
    EXPECT_TRUE(m.apply("ev", up_with({{"mlx5_0", {}}})));
    EXPECT_TRUE(m.watched(PortRef{"mlx5_0", 2}));
    EXPECT_FALSE(m.watched(PortRef{"mlx5_1", 1}));
    EXPECT_EQ(m.watchers(PortRef{"mlx5_0", 1}), "ev");
}

TEST(EventCoverage, ListedPortsOnly) {
    EventCoverageMap m;
    EXPECT_TRUE(m.apply("ev", up_with({{"mlx5_0", {1}}})));
    EXPECT_TRUE(m.watched(PortRef{"mlx5_0", 1}));
    EXPECT_FALSE(m.watched(PortRef{"mlx5_0", 2}));
}

TEST(EventCoverage, SourceGoingDownStopsWatching) {
    EventCoverageMap m;
    m.apply("ev", up_with({{"mlx5_0", {}}}));
    EXPECT_FALSE(m.apply("ev", up_with({{"mlx5_0", {}}})));  // unchanged
    SourceStatus down;
    down.up = false;
    down.event_coverage = {{"mlx5_0", {}}};  // a down source watches nothing, whatever it says
    EXPECT_TRUE(m.apply("ev", down));
    EXPECT_FALSE(m.watched(PortRef{"mlx5_0", 1}));
}

TEST(EventCoverage, SourcesAddUp) {
    EventCoverageMap m;
    m.apply("a", up_with({{"mlx5_0", {1}}}));
    m.apply("b", up_with({{"mlx5_0", {1}}, {"mlx5_1", {}}}));
    EXPECT_EQ(m.watchers(PortRef{"mlx5_0", 1}), "a, b");
    EXPECT_TRUE(m.watched(PortRef{"mlx5_1", 7}));
}

}  // namespace
}  // namespace rdmadiag::engine::pkey
