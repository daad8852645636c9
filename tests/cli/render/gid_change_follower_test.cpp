#include "cli/render/gid_change_follower.hpp"

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"
#include "collector/json/checked_json.hpp"

namespace rdmadiag::cli::render {
namespace {

TimePoint at(int s) {
    return TimePoint{std::chrono::seconds(1'767'225'600 + s)};
}

Observation gids(int s, const char* dev, GidView view, const char* gid) {
    GidTableSample g;
    g.port = PortRef{dev, 1};
    g.view = view;
    g.table.entries.push_back(GidEntry{0, *parse_gid(gid), GidType::ib, {}});
    return Observation{at(s), "test", std::move(g)};
}

class Follow : public ::testing::Test {
protected:
    // The engine consumes `o`, then the follower sees it, as `gids --watch` runs them.
    std::string feed(GidChangeFollower& f, const Observation& o) {
        engine_->consume(o);
        return f.seen(o);
    }

    std::unique_ptr<engine::Engine> engine_ = engine::make_default_engine();
};

TEST_F(Follow, PrintsEachChangeOnceAndNothingForFirstReadsOrRereads) {
    GidChangeFollower f(*engine_, PortRef{}, false);
    EXPECT_EQ(feed(f, gids(0, "mlx5_0", GidView::cache, "fe80::1")), "");
    EXPECT_EQ(feed(f, gids(0, "mlx5_0", GidView::sma, "fe80::1")), "");
    EXPECT_EQ(feed(f, gids(10, "mlx5_0", GidView::sma, "fe80::1")), "");

    const auto text = feed(f, gids(20, "mlx5_0", GidView::sma, "fec0::1"));
    EXPECT_EQ(text.substr(0, 35), "mlx5_0:1  sma generation 1 -> 2  at") << text;
    EXPECT_NE(text.find("      0  changed  fe80:"), std::string::npos) << text;
    EXPECT_EQ(feed(f, gids(30, "mlx5_0", GidView::sma, "fec0::1")), "");
    // The cache follows later: its own change.
    const auto cache = feed(f, gids(40, "mlx5_0", GidView::cache, "fec0::1"));
    EXPECT_EQ(cache.substr(0, 37), "mlx5_0:1  cache generation 1 -> 2  at") << cache;
    // And back: a table seen before is still a change.
    EXPECT_NE(feed(f, gids(50, "mlx5_0", GidView::sma, "fe80::1")), "");
}

TEST_F(Follow, OnlyTheSelectedPortAndJsonLines) {
    GidChangeFollower f(*engine_, PortRef{"mlx5_1", 0}, true);
    feed(f, gids(0, "mlx5_0", GidView::sma, "fe80::1"));
    feed(f, gids(0, "mlx5_1", GidView::sma, "fe80::2"));
    EXPECT_EQ(feed(f, gids(10, "mlx5_0", GidView::sma, "fec0::1")), "");
    const auto line = feed(f, gids(10, "mlx5_1", GidView::sma, "fec0::2"));
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    const auto j = codec::Json::parse(line);
    EXPECT_EQ(j["device"], "mlx5_1") << line;
    EXPECT_EQ(j["view"], "sma");
    EXPECT_EQ(j["new_generation"], 2);
}

TEST_F(Follow, OtherObservationsPrintNothing) {
    GidChangeFollower f(*engine_, PortRef{}, false);
    PKeyTableSample p;
    p.port = PortRef{"mlx5_0", 1};
    p.table.keys = {0xffff};
    EXPECT_EQ(feed(f, Observation{at(0), "test", p}), "");
}

}  // namespace
}  // namespace rdmadiag::cli::render
