#include "collector/sim/timeline.hpp"

#include <gtest/gtest.h>

#include "collector/sim/scenario_parser.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;

Scenario parse(const std::string& steps) {
    auto r = parse_scenario(
        "device ib0\nport ib0:1\npkeys ib0:1 1:0x8001\n"
        "device roce0 transport=roce\nport roce0:1\n" +
        steps);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Scenario{};
}

const TableEffect& table(const Effect& e) {
    return std::get<TableEffect>(e.action);
}
const AsyncEvent& event(const Effect& e) {
    return std::get<EventStep>(e.action).event;
}

TEST(Timeline, SmIntentFirstThenThePortThenTheEvent) {
    const auto effects = compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002\n"));
    ASSERT_EQ(effects.size(), 3u);
    EXPECT_EQ(effects[0].at, 10s);
    EXPECT_EQ(table(effects[0]).views, kSmView);
    EXPECT_EQ(effects[1].at, 10s + 100ms);
    EXPECT_EQ(table(effects[1]).views, kDeviceView | kSmaView);
    EXPECT_EQ(effects[2].at, 10s + 100ms);
    EXPECT_EQ(event(effects[2]).type, AsyncEventType::pkey_change);
    EXPECT_EQ(event(effects[2]).port, 1u);
    for (const auto& e : effects) EXPECT_EQ(e.line, 6u);
}

TEST(Timeline, LateAndLostEvents) {
    auto late = compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002 delay=2s event=20s\n"));
    ASSERT_EQ(late.size(), 3u);
    EXPECT_EQ(late[1].at, 12s);
    EXPECT_EQ(late[2].at, 32s);
    auto lost = compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002 event=none\n"));
    ASSERT_EQ(lost.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<TableEffect>(lost[1].action));
}

TEST(Timeline, EditThatSkipsTheSmIsImmediate) {
    auto local = compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002 views=device\n"));
    ASSERT_EQ(local.size(), 2u);
    EXPECT_EQ(local[0].at, 10s);
    EXPECT_EQ(table(local[0]).views, kDeviceView);
    EXPECT_EQ(local[1].at, 10s);
    auto roce = compile_timeline(parse("at 10s pkey-set roce0:1 0 0x7fff\n"));
    ASSERT_EQ(roce.size(), 2u);
    EXPECT_EQ(table(roce[0]).views, kDeviceView);
    EXPECT_EQ(roce[0].at, 10s);
}

TEST(Timeline, SmOnlyEditHasNoEvent) {
    auto sm = compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002 views=sm\n"));
    ASSERT_EQ(sm.size(), 1u);
    EXPECT_EQ(table(sm[0]).views, kSmView);
}

TEST(Timeline, PortFlapCarriesItsEvent) {
    auto flap = compile_timeline(
        parse("at 1s port-down ib0:1\nat 2s port-up ib0:1\nat 3s port-down roce0:1 event=none\n"));
    ASSERT_EQ(flap.size(), 5u);
    EXPECT_EQ(event(flap[1]).type, AsyncEventType::port_err);
    EXPECT_EQ(event(flap[3]).type, AsyncEventType::port_active);
    EXPECT_TRUE(std::holds_alternative<PortStep>(flap[4].action));
}

TEST(Timeline, EffectsAtTheSameTimeKeepStepOrder) {
    // The first edit's port programming (at 10.1s) lands with the second step (also 10.1s).
    auto effects =
        compile_timeline(parse("at 10s pkey-set ib0:1 2 0x8002\nat 10.1s counter-reset ib0:1\nat "
                               "10.1s port-down ib0:1\n"));
    ASSERT_EQ(effects.size(), 6u);
    EXPECT_EQ(effects[0].at, 10s);
    EXPECT_TRUE(std::holds_alternative<TableEffect>(effects[1].action));
    EXPECT_TRUE(std::holds_alternative<EventStep>(effects[2].action));
    EXPECT_TRUE(std::holds_alternative<CounterStep>(effects[3].action));
    EXPECT_TRUE(std::holds_alternative<PortStep>(effects[4].action));
    EXPECT_EQ(last_effect_time(effects), 10s + 100ms);
    EXPECT_EQ(last_effect_time({}), Duration::zero());
}

}  // namespace
}  // namespace rdmadiag::sim
