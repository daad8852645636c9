#include "collector/sim/scenario_parser.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "collector/sim/shipped_scenarios.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kFabric = R"scn(# a comment line
title "Two ports"   # trailing comment
device mlx5_0 transport=ib guid=0x0c42a10300b1c2d0 fw=20.31.1014 board_id=MT_1 hca_type=MT4123 desc="node01 HCA-1" sys_guid=0x10
port mlx5_0:1 lid=3 sm_lid=1 lmc=0 rate="100 Gb/sec (4X EDR)" cap_mask=0xa651e848 port_guid=0x99 gid=fe80::1 gid=fe80::2 pkeys=64
pkeys mlx5_0:1 0:0xffff 1:0x8001 5:0x0003
counter mlx5_0:1 p_key_violations 10
counter mlx5_0:1 port_rcv_constraint_errors 7
counter mlx5_0:1 port_xmit_data 0 rate=1000/s
counter mlx5_0:1 mystery 1 kind=hw width=32 overflow=saturate
device rxe0 transport=roce
port rxe0:1
device cxgb4_0 transport=iwarp
port cxgb4_0:1 pkeys=0
mr mlx5_0 17 owner=xprtrdma key=0x11a03
mr cxgb4_0 5 owner=fio pid=4242
)scn";

std::string with_fabric(std::string_view steps) {
    return std::string(kFabric) + std::string(steps);
}

Scenario parse_ok(std::string_view text) {
    auto r = parse_scenario(text);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Scenario{};
}

// The error message, which must start with "LINE:COLUMN: ".
std::string parse_error(std::string_view text) {
    auto r = parse_scenario(text);
    EXPECT_FALSE(r.ok()) << "parsed but should not have:\n" << text;
    return r.ok() ? "" : r.error().message;
}

// Line number of the last line of the fabric + n.
std::string at_line(size_t n) {
    size_t lines = 0;
    for (char c : kFabric) lines += c == '\n';
    return std::to_string(lines + n) + ":";
}

TEST(ScenarioParser, ReadsTheFabric) {
    const auto sc = parse_ok(kFabric);
    EXPECT_EQ(sc.title, "Two ports");
    ASSERT_EQ(sc.devices.size(), 3u);
    const auto& d = sc.devices[0];
    EXPECT_EQ(d.device, "mlx5_0");
    EXPECT_EQ(d.transport, Transport::ib);
    EXPECT_EQ(d.node_type, "CA");
    EXPECT_EQ(d.node_guid, 0x0c42a10300b1c2d0u);
    EXPECT_EQ(d.sys_image_guid, 0x10u);
    EXPECT_EQ(d.fw_ver, "20.31.1014");
    EXPECT_EQ(d.board_id, "MT_1");
    EXPECT_EQ(d.hca_type, "MT4123");
    EXPECT_EQ(d.node_desc, "node01 HCA-1");
    EXPECT_EQ(sc.devices[2].node_type, "RNIC");
    EXPECT_EQ(sc.devices[2].transport, Transport::iwarp);

    ASSERT_EQ(sc.ports.size(), 3u);
    const auto& p = sc.ports[0];
    EXPECT_EQ(p.state.port, (PortRef{"mlx5_0", 1}));
    EXPECT_EQ(p.state.state, PortState::active);
    EXPECT_EQ(p.state.phys_state, 5);
    EXPECT_EQ(p.state.lid, 3u);
    EXPECT_EQ(p.state.sm_lid, 1u);
    EXPECT_EQ(p.state.lmc, 0);
    EXPECT_EQ(p.state.rate, "100 Gb/sec (4X EDR)");
    EXPECT_EQ(p.state.cap_mask, 0xa651e848u);
    EXPECT_EQ(p.state.port_guid, 0x99u);
    EXPECT_EQ(p.state.link_layer, LinkLayer::infiniband);
    EXPECT_EQ(p.state.gids, (std::vector<std::string>{"fe80::1", "fe80::2"}));
    EXPECT_EQ(p.views, kFabricViews);
    ASSERT_EQ(p.device_table.keys.size(), 64u);
    EXPECT_EQ(p.device_table.keys[0], 0xffff);
    EXPECT_EQ(p.device_table.keys[1], 0x8001);
    EXPECT_EQ(p.device_table.keys[2], 0);  // a hole
    EXPECT_EQ(p.device_table.keys[5], 0x0003);

    ASSERT_EQ(p.counters.size(), 4u);
    EXPECT_EQ(p.counters[0].kind, CounterKind::portinfo);
    EXPECT_EQ(p.counters[0].width, 16);
    EXPECT_EQ(p.counters[0].overflow, CounterOverflow::wrap);
    EXPECT_EQ(p.counters[0].value, 10u);
    EXPECT_EQ(p.counters[1].kind, CounterKind::pma);
    EXPECT_EQ(p.counters[1].width, 8);
    EXPECT_EQ(p.counters[1].overflow, CounterOverflow::saturate);
    EXPECT_EQ(p.counters[2].width, 64);
    EXPECT_EQ(p.counters[2].per_second, 1000u);
    EXPECT_EQ(p.counters[3].kind, CounterKind::hw);
    EXPECT_EQ(p.counters[3].width, 32);
    EXPECT_EQ(p.counters[3].overflow, CounterOverflow::saturate);

    // RoCE: Ethernet, one default P_Key, device view only.
    EXPECT_EQ(sc.ports[1].state.link_layer, LinkLayer::ethernet);
    EXPECT_EQ(sc.ports[1].views, kDeviceView);
    EXPECT_EQ(sc.ports[1].device_table.keys, (std::vector<uint16_t>{0xffff}));
    // iWARP with pkeys=0: no table at all.
    EXPECT_EQ(sc.ports[2].views, 0);
    EXPECT_TRUE(sc.ports[2].device_table.keys.empty());

    ASSERT_EQ(sc.mrs.size(), 2u);
    EXPECT_EQ(sc.mrs[0].owner.name, "xprtrdma");
    EXPECT_FALSE(sc.mrs[0].owner.pid);
    EXPECT_EQ(sc.mrs[0].key, 0x11a03u);
    EXPECT_EQ(sc.mrs[1].owner.pid, 4242u);
    // No timeline: the scenario runs the default tail.
    EXPECT_EQ(sc.end, kDefaultTail);
    EXPECT_FALSE(sc.loop);
}

TEST(ScenarioParser, ReadsEveryStep) {
    const auto sc = parse_ok(with_fabric(R"(end 2m
loop
at 1s pkey-set mlx5_0:1 2 0x8002
at +500ms pkey-clear mlx5_0:1 2 views=device,sma event=none
at 3s pkey-move mlx5_0:1 0x8001 7 delay=2s event=5s
at 4s pkey-flip mlx5_0:1 0x0003 views=all
at 5s pkey-table mlx5_0:1 0:0xffff 9:0x8009
at 6s counter-add mlx5_0:1 p_key_violations 5
at 6s counter-set mlx5_0:1 port_rcv_constraint_errors 200
at 7s counter-reset mlx5_0:1
at 7s counter-reset mlx5_0:1 mystery
at 8s port-down mlx5_0:1
at 9s port-up mlx5_0:1 state=INIT event=none phys_state=5
at 10s port-down rxe0:1 event=none phys_state=3
at 11s event mlx5_0:1 pkey_change
at 11s event mlx5_0 IBV_EVENT_QP_FATAL element=0x1c5
at 12s mr mlx5_0 17 FASTREG status=WR_FLUSH_ERR
at 12s mr cxgb4_0 5 local_inv status=6 rc=-5
at 13s device-remove rxe0
at 1m device-add rxe0
)"));
    EXPECT_EQ(sc.end, 2min);
    EXPECT_TRUE(sc.loop);
    ASSERT_EQ(sc.steps.size(), 18u);

    const auto& set = std::get<PKeyEdit>(sc.steps[0].action);
    EXPECT_EQ(set.op, PKeyOp::set);
    EXPECT_EQ(set.index, 2);
    EXPECT_EQ(set.key, 0x8002);
    EXPECT_EQ(set.views, 0);  // all the port's views
    EXPECT_EQ(set.delay, 100ms);
    EXPECT_EQ(set.event_delay, Duration::zero());

    EXPECT_EQ(sc.steps[1].at, 1500ms);  // relative to the previous step
    const auto& clear = std::get<PKeyEdit>(sc.steps[1].action);
    EXPECT_EQ(clear.op, PKeyOp::clear);
    EXPECT_EQ(clear.views, kDeviceView | kSmaView);
    EXPECT_FALSE(clear.event_delay);

    const auto& move = std::get<PKeyEdit>(sc.steps[2].action);
    EXPECT_EQ(move.op, PKeyOp::move);
    EXPECT_EQ(move.key, 0x8001);
    EXPECT_EQ(move.index, 7);
    EXPECT_EQ(move.delay, 2s);
    EXPECT_EQ(move.event_delay, Duration(5s));

    EXPECT_EQ(std::get<PKeyEdit>(sc.steps[3].action).views, kFabricViews);
    const auto& table = std::get<PKeyEdit>(sc.steps[4].action);
    EXPECT_EQ(table.op, PKeyOp::table);
    EXPECT_EQ(table.entries,
              (std::vector<std::pair<uint16_t, uint16_t>>{{0, 0xffff}, {9, 0x8009}}));

    const auto& add = std::get<CounterStep>(sc.steps[5].action);
    EXPECT_EQ(add.op, CounterOp::add);
    EXPECT_EQ(add.amount, 5u);
    EXPECT_EQ(std::get<CounterStep>(sc.steps[6].action).op, CounterOp::set);
    EXPECT_TRUE(std::get<CounterStep>(sc.steps[7].action).name.empty());
    EXPECT_EQ(std::get<CounterStep>(sc.steps[8].action).name, "mystery");

    const auto& down = std::get<PortStep>(sc.steps[9].action);
    EXPECT_FALSE(down.up);
    EXPECT_EQ(down.state, PortState::down);
    EXPECT_EQ(down.phys_state, 2);
    EXPECT_EQ(down.event, AsyncEventType::port_err);
    const auto& up = std::get<PortStep>(sc.steps[10].action);
    EXPECT_EQ(up.state, PortState::init);
    EXPECT_FALSE(up.event);
    EXPECT_EQ(std::get<PortStep>(sc.steps[11].action).phys_state, 3);

    const auto& ev = std::get<EventStep>(sc.steps[12].action).event;
    EXPECT_EQ(ev.type, AsyncEventType::pkey_change);
    EXPECT_EQ(ev.port, 1u);
    const auto& qp = std::get<EventStep>(sc.steps[13].action).event;
    EXPECT_EQ(qp.type, AsyncEventType::qp_fatal);
    EXPECT_FALSE(qp.port);
    EXPECT_EQ(qp.element, 0x1c5u);

    const auto& mr = std::get<MrStep>(sc.steps[14].action);
    EXPECT_EQ(mr.op, MrOp::fastreg);
    EXPECT_EQ(mr.status, WcStatus::wr_flush_err);
    const auto& mr2 = std::get<MrStep>(sc.steps[15].action);
    EXPECT_EQ(mr2.op, MrOp::local_inv);
    EXPECT_EQ(mr2.status, WcStatus::mw_bind_err);
    EXPECT_EQ(mr2.rc, -5);

    EXPECT_EQ(std::get<DeviceStep>(sc.steps[16].action), (DeviceStep{"rxe0", false}));
    EXPECT_EQ(std::get<DeviceStep>(sc.steps[17].action), (DeviceStep{"rxe0", true}));
    EXPECT_EQ(sc.steps[17].at, 1min);
}

TEST(ScenarioParser, StepsRememberTheirLineAndColumn) {
    const auto sc = parse_ok(with_fabric("\n\nat 5s   pkey-set mlx5_0:1 3 0x8003\n"));
    ASSERT_EQ(sc.steps.size(), 1u);
    EXPECT_EQ(std::to_string(sc.steps[0].line) + ":", at_line(3));
    EXPECT_EQ(sc.steps[0].column, 9u);
}

TEST(ScenarioParser, DefaultEndIsLastEffectPlusTail) {
    // The late event at 10s + 100ms + 20s is the last effect.
    const auto sc = parse_ok(with_fabric("at 10s pkey-set mlx5_0:1 3 0x8003 event=20s\n"));
    EXPECT_EQ(sc.end, 10s + 100ms + 20s + kDefaultTail);
}

struct ErrorCase {
    const char* text;  // appended to the fabric
    size_t line;       // relative to the first line after the fabric (1)
    size_t column;
    const char* contains;  // part of the message
};

class ScenarioParserErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ScenarioParserErrors, NamesLineAndColumn) {
    const auto& c = GetParam();
    const auto message = parse_error(with_fabric(c.text));
    const auto where = at_line(c.line) + std::to_string(c.column) + ": ";
    EXPECT_EQ(message.substr(0, where.size()), where) << message;
    EXPECT_NE(message.find(c.contains), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    EveryError, ScenarioParserErrors,
    ::testing::Values(
        ErrorCase{"frobnicate 1\n", 1, 1, "unknown directive 'frobnicate'"},
        ErrorCase{"\n  lid=3\n", 2, 3, "starts with a directive"},
        ErrorCase{"title \"open\n", 1, 7, "unterminated quote"},
        ErrorCase{"title\n", 1, 7, "missing text"},
        ErrorCase{"end 5parsecs\n", 1, 5, "not a duration"},
        ErrorCase{"end\n", 1, 5, "missing duration"},
        ErrorCase{"end 1m\nend 2m\n", 2, 1, "'end' given twice"},
        ErrorCase{"loop now\n", 1, 6, "unexpected 'now'"},
        ErrorCase{"device mlx5_0\n", 1, 8, "declared twice"},
        ErrorCase{"device bad/name\n", 1, 8, "not a device name"},
        ErrorCase{"device guid:0x12\n", 1, 8, "not a device name"},
        ErrorCase{"device guid:0x0008F10400000001\n", 1, 8, "not a device name"},
        ErrorCase{"device d1 colour=red\n", 1, 11, "unknown option 'colour'"},
        ErrorCase{"device d1 fw=1 fw=2\n", 1, 16, "given twice"},
        ErrorCase{"device d1 transport=infiniband\n", 1, 11, "not a transport"},
        ErrorCase{"device d1 node_type=toaster\n", 1, 11, "not a node type"},
        ErrorCase{"device d1 guid=0xZZ\n", 1, 11, "not a valid GUID"},
        ErrorCase{"port nodev:1\n", 1, 6, "device nodev is not declared"},
        ErrorCase{"port mlx5_0\n", 1, 6, "not a port"},
        ErrorCase{"port mlx5_0:1\n", 1, 6, "declared twice"},
        ErrorCase{"port mlx5_0:2 state=SLEEPY\n", 1, 15, "not a port state"},
        ErrorCase{"port mlx5_0:2 lid=70000\n", 1, 15, "not a valid LID"},
        ErrorCase{"port mlx5_0:2 link_layer=Token-Ring\n", 1, 15, "not a link layer"},
        ErrorCase{"port mlx5_0:2 views=cache\n", 1, 15, "not a view"},
        ErrorCase{"port mlx5_0:2 views=sma\n", 1, 15, "device view"},
        ErrorCase{"port mlx5_0:2 pkeys=0 views=device\n", 1, 23, "no P_Key views"},
        ErrorCase{"pkeys mlx5_0:9 0:0xffff\n", 1, 7, "not declared"},
        ErrorCase{"pkeys mlx5_0:1\n", 1, 16, "missing INDEX:KEY"},
        ErrorCase{"pkeys mlx5_0:1 64:0x8001\n", 1, 16, "outside the table"},
        ErrorCase{"pkeys mlx5_0:1 3=0x8001\n", 1, 16, "unknown option"},
        ErrorCase{"pkeys mlx5_0:1 3:0xfffff\n", 1, 16, "not a P_Key"},
        ErrorCase{"pkeys mlx5_0:1 three:0x8001\n", 1, 16, "not a valid P_Key index"},
        ErrorCase{"counter mlx5_0:1 port_xmit_constraint_errors 256\n", 1, 46, "at most 255"},
        ErrorCase{"counter mlx5_0:1 x 18446744073709551616\n", 1, 20,
                  "not a valid value: '18446744073709551616' (at most 18446744073709551615)"},
        ErrorCase{"counter mlx5_0:1 x -1\n", 1, 20, "not a valid value"},
        ErrorCase{"counter mlx5_0:1 p_key_violations 0\n", 1, 18, "declared twice"},
        ErrorCase{"counter mlx5_0:1 x 0 kind=soft\n", 1, 22, "not a counter kind"},
        ErrorCase{"counter mlx5_0:1 x 0 width=65\n", 1, 22, "not a valid width"},
        ErrorCase{"counter mlx5_0:1 x 0 width=0\n", 1, 22, "at least 1 bit"},
        ErrorCase{"counter mlx5_0:1 x 0 overflow=explode\n", 1, 22, "saturate' or 'wrap'"},
        ErrorCase{"counter mlx5_0:1 x 0 rate=5\n", 1, 22, "count per second"},
        ErrorCase{"counter mlx5_0:1 x\n", 1, 20, "missing initial value"},
        ErrorCase{"mr nodev 1\n", 1, 4, "not declared"},
        ErrorCase{"mr mlx5_0 17\n", 1, 11, "declared twice"},
        ErrorCase{"mr mlx5_0 -1\n", 1, 11, "not a valid MR id"},
        ErrorCase{"mr mlx5_0 2 pid=x\n", 1, 13, "not a valid pid"},
        ErrorCase{"mr-holder nodev 5 app\n", 1, 11, "not declared"},
        ErrorCase{"mr-holder mlx5_0 0 app\n", 1, 18, "pid 0 is no process"},
        ErrorCase{"mr-holder mlx5_0 five app\n", 1, 18, "not a valid pid"},
        ErrorCase{"mr-holder mlx5_0 5\n", 1, 20, "missing process name"},
        ErrorCase{"mr-holder mlx5_0 5 app mrs=2000000\n", 1, 24, "at most 1000000"},
        ErrorCase{"mr-holder mlx5_0 5 app rate=fast\n", 1, 24, "count per second"},
        ErrorCase{"mr-holder mlx5_0 5 app colour=red\n", 1, 24, "unknown option"},
        ErrorCase{"at 5s holder-exit 77\n", 1, 19, "no mr-holder with pid 77"},
        ErrorCase{"at 5s holder-rate 77 2/s\n", 1, 19, "no mr-holder with pid 77"},
        ErrorCase{"at\n", 1, 4, "missing time"}, ErrorCase{"at 5 \n", 1, 6, "missing step"},
        ErrorCase{"at soon pkey-set mlx5_0:1 2 0x8002\n", 1, 4, "not a duration"},
        ErrorCase{"at 5s teleport mlx5_0:1\n", 1, 7, "unknown step 'teleport'"},
        ErrorCase{"at 5s pkey-shuffle mlx5_0:1\n", 1, 7, "unknown step"},
        ErrorCase{"at 5s counter-double mlx5_0:1\n", 1, 7, "unknown step"},
        ErrorCase{"at 10s event mlx5_0 SM_CHANGE\nat 5s event mlx5_0 SM_CHANGE\n", 1, 14,
                  "is a port event"},
        ErrorCase{"at 10s event mlx5_0 DEVICE_FATAL\nat 5s event mlx5_0 DEVICE_FATAL\n", 2, 4,
                  "time goes backwards"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 2\n", 1, 27, "missing key"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 2 0x8002 3\n", 1, 34, "unexpected '3'"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 2 0x8002 event=later\n", 1, 34, "'none' or a delay"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 2 0x8002 delay=-1s\n", 1, 34, "not a duration"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 2 0x8002 views=cache\n", 1, 34, "not a view"},
        ErrorCase{"at 1s pkey-set nodev:1 2 0x8002\n", 1, 16, "not declared"},
        ErrorCase{"at 1s pkey-flip mlx5_0:1 0x0000\n", 1, 26, "names no key"},
        ErrorCase{"at 1s pkey-table mlx5_0:1 0:0xffff x\n", 1, 36, "INDEX:KEY"},
        // Each P_Key edit names its missing arguments as it reads them.
        ErrorCase{"at 1s pkey-clear mlx5_0:1\n", 1, 27, "missing index after 'at'"},
        ErrorCase{"at 1s pkey-clear mlx5_0:1 1 2\n", 1, 29, "unexpected '2'"},
        ErrorCase{"at 1s pkey-move mlx5_0:1\n", 1, 26, "missing key after 'at'"},
        ErrorCase{"at 1s pkey-move mlx5_0:1 0x8001\n", 1, 33,
                  "missing destination index after 'at'"},
        ErrorCase{"at 1s pkey-move mlx5_0:1 0x0000 4\n", 1, 26, "names no key"},
        ErrorCase{"at 1s pkey-move mlx5_0:1 0x8001 x\n", 1, 33, "not a valid P_Key index"},
        ErrorCase{"at 1s pkey-flip mlx5_0:1\n", 1, 26, "missing key after 'at'"},
        ErrorCase{"at 1s counter-add mlx5_0:1 p_key_violations lots\n", 1, 45,
                  "not a valid number"},
        ErrorCase{"at 1s counter-add mlx5_0:1\n", 1, 28, "missing counter name"},
        ErrorCase{"at 1s port-down mlx5_0:1 state=ACTIVE\n", 1, 26, "not a state for 'port-down'"},
        ErrorCase{"at 1s port-up mlx5_0:1 event=QP_FATAL\n", 1, 24, "not a port event"},
        ErrorCase{"at 1s event mlx5_0:1 PKEY_CHANGED\n", 1, 22, "unknown async event"},
        ErrorCase{"at 1s event mlx5_0:1 QP_FATAL\n", 1, 13, "not a port event"},
        ErrorCase{"at 1s event mlx5_0 PORT_ERR\n", 1, 13, "is a port event"},
        ErrorCase{"at 1s event mlx5_0:7 PORT_ERR\n", 1, 13, "not declared"},
        ErrorCase{"at 1s event mlx5_0 QP_FATAL element=big\n", 1, 29, "not a valid element"},
        ErrorCase{"at 1s mr mlx5_0 99 FASTREG\n", 1, 17, "not declared"},
        ErrorCase{"at 1s mr mlx5_0 17 SCRIBBLE\n", 1, 20, "unknown MR operation"},
        ErrorCase{"at 1s mr mlx5_0 17 FASTREG status=OOPS\n", 1, 28, "unknown completion status"},
        ErrorCase{"at 1s mr mlx5_0 17 FASTREG status=99\n", 1, 28, "unknown completion status"},
        ErrorCase{"at 1s device-remove nodev\n", 1, 21, "not declared"},
        // Found when the timeline is played once against the fabric: the step's line and verb.
        ErrorCase{"\nat 1s pkey-move mlx5_0:1 0x8009 4\n", 2, 7, "key 0x8009 is not in the table"},
        ErrorCase{"at 1s pkey-move mlx5_0:1 0x8001 5\n", 1, 7, "index 5 already holds 0x0003"},
        ErrorCase{"at 1s pkey-set mlx5_0:1 64 0x8002\n", 1, 7, "outside the table"},
        ErrorCase{"at 1s pkey-clear mlx5_0:1 1\nat 2s pkey-flip mlx5_0:1 0x8001\n", 2, 7,
                  "not in the table"},
        ErrorCase{"at 1s pkey-set rxe0:1 0 0x8001 views=sma\n", 1, 7, "has no sma view"},
        ErrorCase{"at 1s pkey-set cxgb4_0:1 0 0x8001\n", 1, 7, "has no device view"},
        ErrorCase{"at 1s counter-add mlx5_0:1 nosuch 1\n", 1, 7, "no counter nosuch"},
        ErrorCase{"at 1s counter-set mlx5_0:1 port_rcv_constraint_errors 300\n", 1, 7,
                  "does not fit 8-bit"},
        ErrorCase{"at 1s device-add rxe0\n", 1, 7, "already present"},
        ErrorCase{"at 1s device-remove rxe0\nat 2s device-remove rxe0\n", 2, 7, "already removed"},
        ErrorCase{"end 10s\nat 9s pkey-set mlx5_0:1 2 0x8002 event=2s\n", 2, 7,
                  "after the scenario's end"},
        ErrorCase{"end 0s\nloop\n", 2, 1, "looping scenario needs an end"},
        // The SM's partitions.conf: a line quoted whole, the SM's port once.
        ErrorCase{"partitions.conf Default=0x7fff : ALL=full ;\n", 1, 1, "quote the line"},
        ErrorCase{"partitions.conf \"a\" \"b\"\n", 1, 1, "quote the line"},
        ErrorCase{"partitions.conf \"a\" sm_port_guid=1\npartitions.conf \"b\" sm_port_guid=2\n", 2,
                  21, "sm_port_guid given twice (first on line"},
        ErrorCase{"partitions.conf \"a\" sm_port_guid=0\n", 1, 21, "is not 0"},
        ErrorCase{"partitions.conf \"a\" sm_port_guid=x\n", 1, 21, "not a valid GUID"},
        // Links and a switch port's partition enforcement.
        ErrorCase{"port mlx5_0:2 enforce=both\n", 1, 15, "not a switch's port"},
        ErrorCase{"device sw node_type=switch guid=0x5\nport sw:1 enforce=sideways\n", 2, 11,
                  "not a direction to enforce partitions in"},
        ErrorCase{"port mlx5_0:2 peer=mlx5_0\n", 1, 15, "not a port"},
        ErrorCase{"port mlx5_0:2 peer=mlx5_0:2\n", 1, 15, "not linked to itself"},
        ErrorCase{"port mlx5_0:2 peer=nodev:1\n", 1, 15, "peer nodev:1 is not declared"},
        ErrorCase{"port mlx5_0:2 peer=rxe0:1\n", 1, 15, "declare rxe0 with guid="},
        ErrorCase{"device sw node_type=switch guid=0x5\nport sw:1 pkeys=0 peer=mlx5_0:1\n"
                  "port sw:2 pkeys=0 peer=mlx5_0:1\n",
                  3, 19, "mlx5_0:1 is linked to another port"},
        ErrorCase{"at 1s port-enforce mlx5_0:1 off\n", 1, 20, "not a switch's port"},
        ErrorCase{
            "device sw node_type=switch guid=0x5\nport sw:1\nat 1s port-enforce sw:1 sideways\n", 3,
            25, "not a direction"},
        ErrorCase{"device sw node_type=switch guid=0x5\nport sw:1\nat 1s port-enforce sw:1\n", 3,
                  25, "missing directions"},
        ErrorCase{"at 1s port-enforce sw:9 off\n", 1, 20, "not declared"},
        // GIDs: a prefix for InfiniBand ports with a GUID, addresses for RoCE ports with a netdev.
        ErrorCase{"at 1s gid-prefix rxe0:1 fec0::\n", 1, 18, "an InfiniBand port with a port_guid"},
        ErrorCase{"at 1s gid-prefix mlx5_0:1 fec0::1\n", 1, 27, "not a subnet prefix"},
        ErrorCase{"at 1s address-add mlx5_0:1 192.0.2.1\n", 1, 19, "a port with a netdev"},
        ErrorCase{"port mlx5_0:2 netdev=eth0\n", 1, 15, "netdev is for Ethernet"},
        ErrorCase{"port mlx5_0:2 gid_prefix=fe80\n", 1, 15, "not a subnet prefix"},
        ErrorCase{"device rxe1 transport=roce\nport rxe1:1 mac=52:54:00\n", 2, 13,
                  "not a MAC address"},
        ErrorCase{"device rxe1 transport=roce\nport rxe1:1 address=192.0.2.1\n", 2, 6,
                  "need netdev=NAME"},
        ErrorCase{"device rxe1 transport=roce\nport rxe1:1 netdev=eth1 address=nowhere\n", 2, 25,
                  "not an IPv4 or IPv6 address"},
        ErrorCase{"device rxe1 transport=roce\nport rxe1:1 netdev=eth1 address=192.0.2.1\n"
                  "at 1s address-add rxe1:1 192.0.2.1\n",
                  3, 7, "eth1 already has"}));

TEST(ScenarioParser, ReadsMrHoldersAndTheirSteps) {
    const auto sc = parse_ok(with_fabric(R"(mr-holder mlx5_0 4242 trainer mrs=200 size=2097152
mr-holder mlx5_0 kernel xprtrdma mrs=64
at 1m holder-rate 4242 2/s
at 2m holder-exit 4242 linger=45s
at 3m holder-exit 4242 linger=forever
at 4m holder-exit 4242
)"));
    ASSERT_EQ(sc.mr_holders.size(), 2u);
    EXPECT_EQ(sc.mr_holders[0], (ScenarioMrHolder{"mlx5_0", 4242u, "trainer", 200, 2097152, 0}));
    EXPECT_EQ(sc.mr_holders[1],
              (ScenarioMrHolder{"mlx5_0", std::nullopt, "xprtrdma", 64, 4096, 0}));
    ASSERT_EQ(sc.steps.size(), 4u);
    EXPECT_EQ(std::get<HolderRateStep>(sc.steps[0].action), (HolderRateStep{4242, 2}));
    EXPECT_EQ(std::get<HolderExitStep>(sc.steps[1].action),
              (HolderExitStep{4242, std::chrono::seconds(45)}));
    EXPECT_EQ(std::get<HolderExitStep>(sc.steps[2].action), (HolderExitStep{4242, std::nullopt}));
    EXPECT_EQ(std::get<HolderExitStep>(sc.steps[3].action), (HolderExitStep{4242, Duration{}}));
}

TEST(ScenarioParser, ReadsADevicesMaxMr) {
    const auto sc = parse_ok("device rxe0 transport=roce max_mr=262144\n");
    EXPECT_EQ(sc.max_mr.at("rxe0"), 262144u);
}

TEST(ScenarioParser, ReadsGidPrefixesAndRoceAddresses) {
    auto sc = parse_ok(with_fabric(
        "port mlx5_0:2 port_guid=0x9a gid_prefix=fec0::\n"
        "device rxe1 transport=roce\n"
        "port rxe1:1 netdev=eth1 mac=52:54:00:12:34:56 address=192.0.2.1 address=2001:db8::1\n"
        "at 1s gid-prefix mlx5_0:1 fec1:0000:0000:0000 delay=1s event=none\n"
        "at 2s address-del rxe1:1 192.0.2.1 event=3s\n"));
    const ScenarioPort* two = nullptr;
    const ScenarioPort* rxe = nullptr;
    for (const auto& p : sc.ports) {
        if (p.state.port == PortRef{"mlx5_0", 2}) two = &p;
        if (p.state.port == PortRef{"rxe1", 1}) rxe = &p;
    }
    ASSERT_NE(two, nullptr);
    EXPECT_EQ(two->gid_prefix, 0xfec0000000000000ull);
    ASSERT_NE(rxe, nullptr);
    EXPECT_EQ(rxe->netdev, "eth1");
    ASSERT_EQ(rxe->addresses.size(), 2u);
    EXPECT_EQ(rxe->addresses[0], gid_from_ipv4(0xc0000201));
    ASSERT_EQ(sc.steps.size(), 2u);
    EXPECT_EQ(std::get<GidPrefixStep>(sc.steps[0].action),
              (GidPrefixStep{PortRef{"mlx5_0", 1}, 0xfec1000000000000ull, 1s, std::nullopt}));
    EXPECT_EQ(std::get<AddressStep>(sc.steps[1].action),
              (AddressStep{PortRef{"rxe1", 1}, gid_from_ipv4(0xc0000201), false, 3s}));
}

TEST(ScenarioParser, CarriesThePartitionsConfLineByLine) {
    const auto sc = parse_ok(
        "device d0 guid=0x10\n"
        "port d0:1 port_guid=0x10\n"
        "partitions.conf \"# the SM's file\"\n"
        "partitions.conf \"Default=0x7fff : ALL=full, SELF=full ;\" "
        "sm_port_guid=0x0002c903000000aa\n"
        "partitions.conf \"\"\n"
        "partitions.conf\n"
        "partitions.conf \"Storage=0x8011 : 0x10=full ;\"   # a scenario comment\n");
    ASSERT_TRUE(sc.partitions_conf.has_value());
    EXPECT_EQ(sc.partitions_conf->text,
              "# the SM's file\nDefault=0x7fff : ALL=full, SELF=full ;\n\n\n"
              "Storage=0x8011 : 0x10=full ;\n");
    EXPECT_EQ(sc.partitions_conf->sm_port_guid, 0x0002c903000000aaull);
    // The loader names the file it came from; text alone has none.
    EXPECT_EQ(sc.partitions_conf->path, "");
    EXPECT_FALSE(parse_ok("device d0\n").partitions_conf.has_value());
}

TEST(ScenarioParser, LinksBothEndsAndReadsEnforcement) {
    const auto sc = parse_ok(
        "device guid:0x0008f10400000001 node_type=switch guid=0x0008f10400000001\n"
        "port guid:0x0008f10400000001:1 pkeys=0 enforce=both peer=hca:1\n"
        "port guid:0x0008f10400000001:2 pkeys=0 enforce=in\n"
        "port guid:0x0008f10400000001:3 pkeys=0 enforce=out peer=hca2:1\n"
        "port guid:0x0008f10400000001:4 pkeys=0\n"
        "device hca guid=0x0c42a10300000001\n"
        "port hca:1 peer=guid:0x0008f10400000001:1\n"
        "device hca2 guid=0x0c42a10300000002\n"
        "port hca2:1\n"
        "at 5s port-enforce guid:0x0008f10400000001:1 off\n");
    ASSERT_EQ(sc.ports.size(), 6u);
    const auto& s1 = sc.ports[0].state;
    EXPECT_EQ(s1.peer_node_guid, 0x0c42a10300000001ull);
    EXPECT_EQ(s1.peer_port, 1u);
    EXPECT_EQ(s1.partition_enforcement_inbound, true);
    EXPECT_EQ(s1.partition_enforcement_outbound, true);
    EXPECT_EQ(sc.ports[1].state.partition_enforcement_inbound, true);
    EXPECT_EQ(sc.ports[1].state.partition_enforcement_outbound, false);
    EXPECT_FALSE(sc.ports[1].state.peer_node_guid.has_value());
    EXPECT_EQ(sc.ports[2].state.partition_enforcement_inbound, false);
    EXPECT_EQ(sc.ports[2].state.partition_enforcement_outbound, true);
    // Not said: unknown, as a source that did not read PortInfo leaves it.
    EXPECT_FALSE(sc.ports[3].state.partition_enforcement_inbound.has_value());
    // Each link names the other end on both sides, whichever side declared it.
    EXPECT_EQ(sc.ports[4].state.peer_node_guid, 0x0008f10400000001ull);
    EXPECT_EQ(sc.ports[4].state.peer_port, 1u);
    EXPECT_EQ(sc.ports[5].state.peer_node_guid, 0x0008f10400000001ull);
    EXPECT_EQ(sc.ports[5].state.peer_port, 3u);
    EXPECT_FALSE(sc.ports[4].state.partition_enforcement_inbound.has_value());
    ASSERT_EQ(sc.steps.size(), 1u);
    EXPECT_EQ(std::get<EnforcementStep>(sc.steps[0].action),
              (EnforcementStep{PortRef{"guid:0x0008f10400000001", 1}, false, false}));
}

TEST(ScenarioParser, SubnetNodesAreNamedByGuid) {
    // The MAD source's subnet-scope device names, so a scenario can model one subnet collector.
    const auto sc = parse_ok(
        "device guid:0x0008f10400000001 node_type=switch desc=Leaf017\n"
        "port guid:0x0008f10400000001:36\n"
        "counter guid:0x0008f10400000001:36 symbol_error 0\n"
        "at 1s counter-add guid:0x0008f10400000001:36 symbol_error 3\n");
    ASSERT_EQ(sc.ports.size(), 1u);
    EXPECT_EQ(sc.ports[0].state.port, (PortRef{"guid:0x0008f10400000001", 36}));
}

TEST(ScenarioParser, NoDeviceIsAnError) {
    auto r = parse_scenario("# nothing\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.substr(0, 4), "1:1:");
}

TEST(ScenarioParser, NulByteIsAnError) {
    std::string text(kFabric);
    text += std::string("title a\0b\n", 10);
    const auto message = parse_error(text);
    EXPECT_EQ(message.substr(0, at_line(1).size() + 2), at_line(1) + "8:") << message;
}

TEST(ScenarioParser, CrLfLinesAreRead) {
    std::string text;
    for (char c : kFabric) {
        if (c == '\n') text += '\r';
        text += c;
    }
    const auto sc = parse_ok(text);
    EXPECT_EQ(sc.ports[0].state.rate, "100 Gb/sec (4X EDR)");
}

// Garbage never crashes the parser: it either parses or names a line that exists.
void expect_parses_or_names_a_line(const std::string& text) {
    auto r = parse_scenario(text);
    if (r.ok()) return;
    static const std::regex where(R"(^(\d+):(\d+): .+)");
    std::smatch m;
    const std::string& message = r.error().message;
    ASSERT_TRUE(std::regex_search(message, m, where)) << message;
    const size_t line = std::stoul(m[1]);
    const size_t lines = 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    EXPECT_GE(line, 1u);
    EXPECT_LE(line, lines) << message;
}

TEST(ScenarioParser, RandomGarbageLinesNeverCrash) {
    std::mt19937 rng(20261202);
    const std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_:=\"\\#+-.,/ \t\r\x01\xff";
    for (int round = 0; round < 400; ++round) {
        std::string text(kFabric);
        const int lines = 1 + static_cast<int>(rng() % 5);
        for (int l = 0; l < lines; ++l) {
            const size_t len = rng() % 60;
            for (size_t i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
            text += '\n';
        }
        expect_parses_or_names_a_line(text);
    }
}

TEST(ScenarioParser, MangledShippedScenarioNeverCrashes) {
    const auto* shipped = find_shipped_scenario("default");
    ASSERT_NE(shipped, nullptr);
    std::mt19937 rng(7);
    for (int round = 0; round < 300; ++round) {
        std::string text(shipped->text);
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            const size_t at = rng() % text.size();
            switch (rng() % 4) {
                case 0:
                    text.erase(at, 1 + rng() % 8);
                    break;
                case 1:
                    text.insert(at, 1, static_cast<char>(rng() % 256));
                    break;
                case 2:
                    text[at] = static_cast<char>(' ' + rng() % 95);
                    break;
                default:
                    text.insert(at, text.substr(rng() % text.size(), rng() % 30));
                    break;
            }
        }
        expect_parses_or_names_a_line(text);
    }
}

TEST(ScenarioParser, KeywordsInEveryPositionNeverCrash) {
    const std::vector<std::string> words = {"at",
                                            "1s",
                                            "+1s",
                                            "pkey-set",
                                            "pkey-move",
                                            "mlx5_0:1",
                                            "mlx5_0",
                                            "0x8001",
                                            "7",
                                            "event",
                                            "mr",
                                            "17",
                                            "FASTREG",
                                            "views=sm",
                                            "event=",
                                            "=",
                                            "\"",
                                            "counter",
                                            "port",
                                            "device",
                                            "loop",
                                            "end",
                                            "status=",
                                            "pkeys",
                                            "partitions.conf",
                                            "port-enforce",
                                            "peer=mlx5_0:1",
                                            "enforce=off",
                                            "sm_port_guid="};
    std::mt19937 rng(99);
    for (int round = 0; round < 500; ++round) {
        std::string line;
        const size_t n = rng() % 7;
        for (size_t i = 0; i < n; ++i) line += words[rng() % words.size()] + " ";
        expect_parses_or_names_a_line(with_fabric(line + "\n"));
    }
}

}  // namespace
}  // namespace rdmadiag::sim

namespace rdmadiag::sim {
namespace {

// The example in docs/scenarios.md is a scenario that parses.
TEST(ScenarioParser, DocumentedExampleParses) {
    std::ifstream in(::rdmadiag::test::source_dir() + "/docs/scenarios.md");
    ASSERT_TRUE(in) << "docs/scenarios.md not found";
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string doc = buf.str();
    const auto section = doc.find("## Example");
    ASSERT_NE(section, std::string::npos);
    const auto open = doc.find("```\n", section);
    const auto close = doc.find("```", open + 4);
    ASSERT_NE(close, std::string::npos);
    auto sc = parse_scenario(doc.substr(open + 4, close - open - 4));
    ASSERT_TRUE(sc.ok()) << sc.error().message;
    EXPECT_EQ(sc->end, std::chrono::minutes(2));
    ASSERT_EQ(sc->steps.size(), 2u);
    EXPECT_FALSE(std::get<PKeyEdit>(sc->steps[0].action).event_delay);
}

}  // namespace
}  // namespace rdmadiag::sim
