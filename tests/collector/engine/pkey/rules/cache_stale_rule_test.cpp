#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kCacheStale = "pkey.cache_stale";

TEST(CacheStale, ChangeWithEventNeverGoesStale) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    EXPECT_EQ(s.port().cache, CacheJudgement::pending);
    s.event(10.2);
    EXPECT_EQ(s.engine().take_refresh_requests(), std::vector<PortRef>{PortRef({"mlx5_0", 1})});
    s.table(10.25, table_of({0x8001, 0x8002}));  // the refresh the event asked for
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
    s.advance(60);
    EXPECT_EQ(s.active(kCacheStale), nullptr);
    EXPECT_EQ(s.cleared(kCacheStale), nullptr);
    const auto cache = s.views().view(PortRef{"mlx5_0", 1}, PKeyView::cache);
    ASSERT_TRUE(cache.has_value());
    EXPECT_EQ(cache->generation, 2u);
    EXPECT_EQ(cache->loaded_generation, 2u);
}

TEST(CacheStale, ChangeWithoutEventIsStaleAfterGrace) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    s.advance(14.9);
    EXPECT_EQ(s.active(kCacheStale), nullptr);
    EXPECT_EQ(s.port().cache, CacheJudgement::pending);
    s.advance(15);
    const Finding* f = s.active(kCacheStale);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(10));
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_EQ(f->subject.to_string(), "mlx5_0:1");
    EXPECT_NE(f->evidence.find("no PKEY_CHANGE delivered for 5.0s"), std::string::npos)
        << f->evidence;
    EXPECT_NE(f->evidence.find("0x8002 added at index 2"), std::string::npos) << f->evidence;
    EXPECT_FALSE(f->advice.empty());
    EXPECT_EQ(s.port().cache, CacheJudgement::stale);
    EXPECT_EQ(s.port().stale_since, at(10));
    // Polls of the same table do not heal it: only an event reloads the cache.
    s.table(20, table_of({0x8001, 0x8002}));
    s.advance(40);
    f = s.active(kCacheStale);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("for 30.0s"), std::string::npos) << f->evidence;
}

TEST(CacheStale, LateEventHealsAndTheDurationIsKept) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    s.advance(16);
    ASSERT_NE(s.active(kCacheStale), nullptr);
    s.event(22.5);
    s.table(22.6, table_of({0x8001, 0x8002}));
    EXPECT_EQ(s.active(kCacheStale), nullptr);
    const Finding* f = s.cleared(kCacheStale);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(10));
    EXPECT_EQ(f->cleared, at(22.6));
    EXPECT_NE(f->evidence.find("stale for 12.6s"), std::string::npos) << f->evidence;
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
}

TEST(CacheStale, EventWithoutRefreshReloadsFromTheLastReadAfterTheWait) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    s.event(10.5);
    s.advance(12.4);
    EXPECT_EQ(s.port().cache, CacheJudgement::pending);
    s.advance(12.5);
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
    s.advance(30);
    EXPECT_EQ(s.active(kCacheStale), nullptr);
}

TEST(CacheStale, ReloadUsesTheTableReadAfterTheEvent) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.event(5);  // the event arrives before any poll saw the change
    s.table(5.1, table_of({0x8001, 0x8003}));
    const auto cache = s.views().view(PortRef{"mlx5_0", 1}, PKeyView::cache);
    ASSERT_TRUE(cache.has_value());
    EXPECT_EQ(cache->table.keys, table_of({0x8001, 0x8003}));
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
}

TEST(CacheStale, UnwatchedPortsAreNotJudged) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    s.advance(100);
    EXPECT_EQ(s.active(kCacheStale), nullptr);
    const auto p = s.port();
    EXPECT_EQ(p.cache, CacheJudgement::not_watched);
    EXPECT_NE(p.cache_note.find("cannot be judged"), std::string::npos);
}

TEST(CacheStale, LosingTheWatchClearsAndRegainingItStartsFresh) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8001, 0x8002}));
    s.advance(20);
    ASSERT_NE(s.active(kCacheStale), nullptr);
    s.unwatch(21);
    EXPECT_EQ(s.active(kCacheStale), nullptr);
    EXPECT_EQ(s.port().cache, CacheJudgement::not_watched);
    s.watch(30);
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
