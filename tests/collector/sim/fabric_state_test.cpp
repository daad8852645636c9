#include "collector/sim/fabric_state.hpp"

#include <gtest/gtest.h>

#include "collector/sim/scenario_parser.hpp"
#include "tests/collector/sim/sim_test_support.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using testing::all_of;

constexpr std::string_view kStateFabric = R"scn(
device ib0 guid=0x10 fw=1.2.3
port ib0:1 pkeys=8 lid=7
pkeys ib0:1 0:0xffff 1:0x8001 2:0x8002 3:0x0003
counter ib0:1 port_rcv_constraint_errors 250
counter ib0:1 p_key_violations 65530
counter ib0:1 port_xmit_data 18446744073709551610
counter ib0:1 port_rcv_data 0 rate=1500/s
device roce0 transport=roce
port roce0:1
counter roce0:1 out_of_sequence 3 kind=hw
device iw0 transport=iwarp
port iw0:1 pkeys=0
mr ib0 17 owner=xprtrdma key=0x1a03
mr ib0 18 owner=fio pid=77
)scn";

Scenario fabric() {
    auto r = parse_scenario(kStateFabric);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Scenario{};
}

const PortRef kIb{"ib0", 1};
const PortRef kRoce{"roce0", 1};

PKeyEdit edit(PKeyOp op, uint16_t index, uint16_t key) {
    PKeyEdit e;
    e.port = kIb;
    e.op = op;
    e.index = index;
    e.key = key;
    return e;
}

TEST(ApplyPKeyOp, EveryOperation) {
    std::vector<uint16_t> keys{0xffff, 0x8001, 0x8002, 0x0003, 0, 0};
    ASSERT_TRUE(apply_pkey_op(edit(PKeyOp::set, 4, 0x8004), keys).ok());
    EXPECT_EQ(keys[4], 0x8004);
    ASSERT_TRUE(apply_pkey_op(edit(PKeyOp::clear, 1, 0), keys).ok());
    EXPECT_EQ(keys[1], 0);
    // Moves match the base key, whatever the membership bit says.
    ASSERT_TRUE(apply_pkey_op(edit(PKeyOp::move, 5, 0x0002), keys).ok());
    EXPECT_EQ(keys[2], 0);
    EXPECT_EQ(keys[5], 0x8002);
    ASSERT_TRUE(apply_pkey_op(edit(PKeyOp::move, 5, 0x8002), keys).ok());  // already there
    EXPECT_EQ(keys[5], 0x8002);
    ASSERT_TRUE(apply_pkey_op(edit(PKeyOp::flip, 0, 0x8003), keys).ok());
    EXPECT_EQ(keys[3], 0x8003);
    EXPECT_FALSE(apply_pkey_op(edit(PKeyOp::flip, 0, 0x0005), keys).ok());
    auto whole = edit(PKeyOp::table, 0, 0);
    whole.entries = {{0, 0xffff}, {3, 0x8009}};
    ASSERT_TRUE(apply_pkey_op(whole, keys).ok());
    EXPECT_EQ(keys, (std::vector<uint16_t>{0xffff, 0, 0, 0x8009, 0, 0}));
}

TEST(ApplyPKeyOp, ErrorsLeaveTheTableAlone) {
    const std::vector<uint16_t> start{0xffff, 0x8001, 0, 0};
    auto keys = start;
    auto r = apply_pkey_op(edit(PKeyOp::set, 4, 0x8004), keys);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "index 4 is outside the table (size 4)");
    r = apply_pkey_op(edit(PKeyOp::move, 0, 0x8001), keys);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "index 0 already holds 0xffff");
    r = apply_pkey_op(edit(PKeyOp::flip, 0, 0x8007), keys);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "key 0x8007 is not in the table");
    auto whole = edit(PKeyOp::table, 0, 0);
    whole.entries = {{0, 0xffff}, {9, 0x8009}};
    EXPECT_FALSE(apply_pkey_op(whole, keys).ok());
    EXPECT_EQ(keys, start);
}

TEST(FabricState, StartsWithTheDeclaredTablesInEveryView) {
    FabricState s(fabric(), "sim");
    for (auto v : kFabricViewOrder) {
        const auto* t = s.table(kIb, v);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->keys, (std::vector<uint16_t>{0xffff, 0x8001, 0x8002, 0x0003, 0, 0, 0, 0}));
    }
    EXPECT_NE(s.table(kRoce, PKeyView::device), nullptr);
    EXPECT_EQ(s.table(kRoce, PKeyView::sma), nullptr);
    EXPECT_EQ(s.table(PortRef{"iw0", 1}, PKeyView::device), nullptr);
    EXPECT_EQ(s.table(kIb, PKeyView::cache), nullptr);
}

TEST(FabricState, TableEffectTouchesOnlyItsViews) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    ASSERT_TRUE(s.apply(TableEffect{edit(PKeyOp::set, 5, 0x8005), kSmView}, {}, sink).ok());
    EXPECT_EQ(s.table(kIb, PKeyView::sm)->keys[5], 0x8005);
    EXPECT_EQ(s.table(kIb, PKeyView::device)->keys[5], 0);
    EXPECT_EQ(s.table(kIb, PKeyView::sma)->keys[5], 0);
    EXPECT_TRUE(sink.observations.empty());  // tables are read by polls, never pushed
}

TEST(FabricState, FailedEditChangesNoView) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    // The sm view gets 0x8005 first; moving it then fails on device/sma, which lack it.
    ASSERT_TRUE(s.apply(TableEffect{edit(PKeyOp::set, 5, 0x8005), kSmView}, {}, sink).ok());
    auto r = s.apply(TableEffect{edit(PKeyOp::move, 6, 0x8005), kFabricViews}, {}, sink);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("device view"), std::string::npos) << r.error().message;
    EXPECT_EQ(s.table(kIb, PKeyView::sm)->keys[5], 0x8005);
    EXPECT_EQ(s.table(kIb, PKeyView::sm)->keys[6], 0);
}

TEST(FabricState, CountersSaturateOrWrapByTheirWidth) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    auto add = [&](const char* name, uint64_t n) {
        return s.apply(CounterStep{kIb, CounterOp::add, name, n}, {}, sink).ok();
    };
    ASSERT_TRUE(add("port_rcv_constraint_errors", 3));
    EXPECT_EQ(s.counter(kIb, "port_rcv_constraint_errors")->value, 253u);
    ASSERT_TRUE(add("port_rcv_constraint_errors", 1000));
    EXPECT_EQ(s.counter(kIb, "port_rcv_constraint_errors")->value, 255u);  // 8 bits, saturated
    ASSERT_TRUE(add("p_key_violations", 10));
    EXPECT_EQ(s.counter(kIb, "p_key_violations")->value, 4u);  // 65530 + 10 - 65536
    ASSERT_TRUE(add("port_xmit_data", 10));
    EXPECT_EQ(s.counter(kIb, "port_xmit_data")->value, 4u);  // 64 bits wrap too
    EXPECT_FALSE(add("no_such_counter", 1));

    ASSERT_TRUE(
        s.apply(CounterStep{kIb, CounterOp::set, "p_key_violations", 65535}, {}, sink).ok());
    EXPECT_EQ(s.counter(kIb, "p_key_violations")->value, 65535u);
    auto too_big = s.apply(CounterStep{kIb, CounterOp::set, "p_key_violations", 65536}, {}, sink);
    ASSERT_FALSE(too_big.ok());
    EXPECT_EQ(too_big.error().message, "value 65536 does not fit 16-bit counter p_key_violations");

    ASSERT_TRUE(s.apply(CounterStep{kIb, CounterOp::reset, "p_key_violations", 0}, {}, sink).ok());
    EXPECT_EQ(s.counter(kIb, "p_key_violations")->value, 0u);
    EXPECT_EQ(s.counter(kIb, "port_rcv_constraint_errors")->value, 255u);
    ASSERT_TRUE(s.apply(CounterStep{kIb, CounterOp::reset, "", 0}, {}, sink).ok());
    EXPECT_EQ(s.counter(kIb, "port_rcv_constraint_errors")->value, 0u);
}

TEST(FabricState, CounterSamplesCarryWidthAndKind) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    s.sample_counters(TimePoint{} + 1s, sink);
    const auto list = all_of<DeviceList>(sink.observations);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].body.devices, (std::vector<std::string>{"ib0", "roce0", "iw0"}));
    const auto states = all_of<PortStateSample>(sink.observations);
    ASSERT_EQ(states.size(), 3u);
    EXPECT_EQ(states[0].body.lid, 7u);
    const auto cs = all_of<CounterSample>(sink.observations);
    ASSERT_EQ(cs.size(), 5u);
    EXPECT_EQ(cs[0].body,
              (CounterSample{kIb, "port_rcv_constraint_errors", 250, 8, CounterKind::pma}));
    EXPECT_EQ(cs[1].body,
              (CounterSample{kIb, "p_key_violations", 65530, 16, CounterKind::portinfo}));
    EXPECT_EQ(cs[4].body, (CounterSample{kRoce, "out_of_sequence", 3, 64, CounterKind::hw}));
    for (const auto& o : sink.observations) {
        EXPECT_EQ(o.source, "sim");
        EXPECT_EQ(o.time, TimePoint{} + 1s);
    }
}

TEST(FabricState, TrafficCountersGrowOnlyWhileActive) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    s.sample_counters(TimePoint{} + 0s, sink);
    EXPECT_EQ(s.counter(kIb, "port_rcv_data")->value, 0u);
    s.sample_counters(TimePoint{} + 1s + 500ms, sink);
    EXPECT_EQ(s.counter(kIb, "port_rcv_data")->value, 2250u);
    ASSERT_TRUE(s.apply(PortStep{kIb, false, PortState::down, 2, std::nullopt}, {}, sink).ok());
    s.sample_counters(TimePoint{} + 10s, sink);
    EXPECT_EQ(s.counter(kIb, "port_rcv_data")->value, 2250u);
    EXPECT_EQ(s.port_state(kIb)->state, PortState::down);
    EXPECT_EQ(s.port_state(kIb)->phys_state, 2);
    ASSERT_TRUE(s.apply(PortStep{kIb, true, PortState::active, 5, std::nullopt}, {}, sink).ok());
    s.sample_counters(TimePoint{} + 12s, sink);
    EXPECT_EQ(s.counter(kIb, "port_rcv_data")->value, 5250u);
}

TEST(FabricState, TableSamplesHaveEveryExposedViewButNeverCache) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    s.sample_tables(TimePoint{} + 10s, sink);
    const auto infos = all_of<DeviceInfo>(sink.observations);
    ASSERT_EQ(infos.size(), 3u);
    EXPECT_EQ(infos[0].body.fw_ver, "1.2.3");
    EXPECT_EQ(infos[2].body.node_type, "RNIC");
    const auto ts = all_of<PKeyTableSample>(sink.observations);
    ASSERT_EQ(ts.size(), 4u);  // ib0: device, sma, sm; roce0: device; iw0: none
    EXPECT_EQ(ts[0].body.view, PKeyView::device);
    EXPECT_EQ(ts[1].body.view, PKeyView::sma);
    EXPECT_EQ(ts[2].body.view, PKeyView::sm);
    EXPECT_EQ(ts[3].body.port, kRoce);
    EXPECT_EQ(ts[3].body.table.keys, (std::vector<uint16_t>{0xffff}));
    for (const auto& t : ts) EXPECT_TRUE(t.body.table.complete());
}

TEST(FabricState, EventsAndMrEventsAreEmittedWhenTheyHappen) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    const auto when = TimePoint{} + 3s;
    ASSERT_TRUE(
        s.apply(EventStep{AsyncEvent{"ib0", 1, AsyncEventType::pkey_change, {}}}, when, sink).ok());
    ASSERT_TRUE(
        s.apply(MrStep{"ib0", 17, MrOp::local_inv, WcStatus::wr_flush_err, {}}, when, sink).ok());
    ASSERT_TRUE(s.apply(MrStep{"ib0", 18, MrOp::dereg, WcStatus::success, 0}, when, sink).ok());
    EXPECT_FALSE(s.apply(MrStep{"ib0", 19, MrOp::dereg, WcStatus::success, 0}, when, sink).ok());
    ASSERT_EQ(sink.observations.size(), 3u);
    EXPECT_EQ(sink.observations[0].time, when);
    const auto mrs = all_of<MrEvent>(sink.observations);
    ASSERT_EQ(mrs.size(), 2u);
    EXPECT_EQ(mrs[0].body.owner, (MrOwner{std::nullopt, "xprtrdma"}));
    EXPECT_EQ(mrs[0].body.key, 0x1a03u);
    EXPECT_EQ(mrs[0].body.status, WcStatus::wr_flush_err);
    EXPECT_EQ(mrs[1].body.owner, (MrOwner{77, "fio"}));
    EXPECT_EQ(mrs[1].body.rc, 0);
}

TEST(FabricState, UnpluggedDeviceIsNotSeenUntilItReturns) {
    FabricState s(fabric(), "sim");
    sources::VectorSink sink;
    ASSERT_TRUE(s.apply(DeviceStep{"ib0", false}, {}, sink).ok());
    EXPECT_FALSE(s.device_present("ib0"));
    EXPECT_FALSE(s.apply(DeviceStep{"ib0", false}, {}, sink).ok());
    // Events for it are not delivered; its state still moves (it is reset while away).
    ASSERT_TRUE(
        s.apply(EventStep{AsyncEvent{"ib0", 1, AsyncEventType::port_err, {}}}, {}, sink).ok());
    ASSERT_TRUE(s.apply(MrStep{"ib0", 17, MrOp::dereg, WcStatus::success, 0}, {}, sink).ok());
    ASSERT_TRUE(s.apply(CounterStep{kIb, CounterOp::reset, "", 0}, {}, sink).ok());
    EXPECT_TRUE(sink.observations.empty());

    s.sample_counters(TimePoint{} + 1s, sink);
    s.sample_tables(TimePoint{} + 1s, sink);
    EXPECT_EQ(all_of<DeviceList>(sink.observations)[0].body.devices,
              (std::vector<std::string>{"roce0", "iw0"}));
    for (const auto& o : sink.observations) {
        if (const auto* c = std::get_if<CounterSample>(&o.body)) {
            EXPECT_NE(c->port, kIb);
        }
        if (const auto* t = std::get_if<PKeyTableSample>(&o.body)) {
            EXPECT_NE(t->port, kIb);
        }
    }
    sink.observations.clear();
    s.sample_port(kIb, TimePoint{} + 1s, sink);
    EXPECT_TRUE(sink.observations.empty());

    // Back: the next fast poll reads it whole, identity and tables included.
    ASSERT_TRUE(s.apply(DeviceStep{"ib0", true}, {}, sink).ok());
    s.sample_counters(TimePoint{} + 2s, sink);
    const auto infos = all_of<DeviceInfo>(sink.observations);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].body.device, "ib0");
    EXPECT_EQ(all_of<PKeyTableSample>(sink.observations).size(), 3u);
    EXPECT_EQ(s.counter(kIb, "port_rcv_constraint_errors")->value, 0u);
    sink.observations.clear();
    s.sample_counters(TimePoint{} + 3s, sink);
    EXPECT_TRUE(all_of<DeviceInfo>(sink.observations).empty());
}

TEST(FabricState, ASwitchPortChangesItsEnforcement) {
    auto sc = parse_scenario(
        "device sw node_type=switch guid=0x5\nport sw:1 pkeys=0 enforce=both peer=hca:1\n"
        "device hca guid=0x6\nport hca:1\n");
    ASSERT_TRUE(sc.ok()) << sc.error().message;
    FabricState s(*sc, "sim");
    const PortRef sw{"sw", 1};
    sources::VectorSink sink;
    ASSERT_TRUE(s.apply(EnforcementStep{sw, false, true}, {}, sink).ok());
    EXPECT_TRUE(sink.observations.empty());
    EXPECT_EQ(s.port_state(sw)->partition_enforcement_inbound, false);
    EXPECT_EQ(s.port_state(sw)->partition_enforcement_outbound, true);
    EXPECT_FALSE(s.apply(EnforcementStep{PortRef{"sw", 2}, true, true}, {}, sink).ok());
    // The next poll of port states says it, with the link.
    s.sample_counters(TimePoint{} + 1s, sink);
    bool seen = false;
    for (const auto& st : all_of<PortStateSample>(sink.observations)) {
        if (st.body.port != sw) continue;
        seen = true;
        EXPECT_EQ(st.body.partition_enforcement_inbound, false);
        EXPECT_EQ(st.body.partition_enforcement_outbound, true);
        EXPECT_EQ(st.body.peer_node_guid, 0x6u);
        EXPECT_EQ(st.body.peer_port, 1u);
    }
    EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace rdmadiag::sim
