#include "collector/engine/pkey/views/pkey_views.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "tests/collector/engine/pkey/pkey_scenario.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine::pkey {
namespace {

using test::at;
using test::obs;

TEST(PKeyViews, GenerationRisesOnlyOnRealChange) {
    Engine e;
    e.add_module(std::make_unique<PKeyViews>());
    e.consume(obs(1, test::pkeys("mlx5_0", 1, {0xffff, 0x8001})));
    e.consume(obs(2, test::pkeys("mlx5_0", 1, {0xffff, 0x8001})));
    auto s = e.snapshot();
    const auto* v = s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::device);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->generation, 1u);
    EXPECT_EQ(v->confirmed, at(2));
    e.consume(obs(3, test::pkeys("mlx5_0", 1, {0xffff, 0x0001})));
    s = e.snapshot();
    v = s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::device);
    EXPECT_EQ(v->generation, 2u);
    EXPECT_EQ(v->changed, at(3));
    EXPECT_EQ(s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::sma), nullptr);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey

namespace rdmadiag::engine::pkey {
namespace {

TEST(PKeyViews, CacheIsLoadedAtFirstSightAndSharesTheDeviceTable) {
    Engine e;
    e.add_module(std::make_unique<PKeyViews>());
    e.consume(obs(1, test::pkeys("mlx5_0", 1, {0xffff, 0x8001})));
    auto s = e.snapshot();
    const auto& pk = s->find_port(PortRef{"mlx5_0", 1})->pkeys;
    const auto* cache = pk.find(PKeyView::cache);
    ASSERT_NE(cache, nullptr);
    EXPECT_EQ(cache->table.keys, (std::vector<uint16_t>{0xffff, 0x8001}));
    EXPECT_EQ(cache->generation, 1u);
    EXPECT_EQ(cache->loaded_generation, 1u);
    EXPECT_EQ(pk.cache, CacheJudgement::not_watched);
}

TEST(PKeyViews, EventsForOtherPortsDoNotReloadThisOne) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, test::table_of({0x8001}), PKeyView::device, 1);
    s.table(1, test::table_of({0x8001}), PKeyView::device, 2);
    s.table(10, test::table_of({0x8002}), PKeyView::device, 1);
    s.event(10.1, 2);
    s.table(10.2, test::table_of({0x8001}), PKeyView::device, 2);
    s.advance(20);
    EXPECT_NE(s.active("pkey.cache_stale"), nullptr);
    EXPECT_EQ(s.active("pkey.cache_stale")->subject.port, 1u);
}

TEST(PKeyViews, DeviceWideEventReloadsEveryPort) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, test::table_of({0x8001}), PKeyView::device, 1);
    s.table(1, test::table_of({0x8001}), PKeyView::device, 2);
    s.table(10, test::table_of({0x8002}), PKeyView::device, 1);
    AsyncEvent e;
    e.device = "mlx5_0";
    e.type = AsyncEventType::pkey_change;
    s.engine().consume(obs(10.1, e, "verbs_events"));
    EXPECT_EQ(s.engine().take_refresh_requests().size(), 2u);
    s.advance(20);
    EXPECT_EQ(s.active("pkey.cache_stale"), nullptr);
}

TEST(PKeyViews, RemotePortsReportChangesOnTheSmaView) {
    test::PKeyScenario s;
    s.table(1, {0xffff, 0x8001}, PKeyView::sma);
    s.table(2, {0xffff, 0, 0x8001}, PKeyView::sma);
    EXPECT_NE(s.active("pkey.index_moved"), nullptr);
    ASSERT_TRUE(s.port().last_diff.has_value());
    EXPECT_EQ(s.port().last_diff->view, PKeyView::sma);
    EXPECT_EQ(s.port().cache, CacheJudgement::unknown);
}

TEST(PKeyViews, UnreadableSlotIsNotAChange) {
    test::PKeyScenario s;
    s.table(1, {0xffff, 0x8001});
    PKeyTableSample partial = test::pkeys("mlx5_0", 1, {0xffff, 0});
    partial.table.unreadable = {1};
    s.engine().consume(obs(2, partial, "sysfs"));
    const auto dev = s.views().view(PortRef{"mlx5_0", 1}, PKeyView::device);
    ASSERT_TRUE(dev.has_value());
    EXPECT_EQ(dev->generation, 1u);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey
