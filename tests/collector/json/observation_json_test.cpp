#include "collector/json/observation_json.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::codec {
namespace {

TimePoint at_ns(int64_t ns) {
    return TimePoint{Duration{ns}};
}

std::vector<Observation> one_of_each() {
    const TimePoint t = at_ns(1'764'685'746'123'456'789);
    std::vector<Observation> v;
    v.push_back({t, "sysfs",
                 DeviceInfo{.device = "mlx5_0",
                            .node_type = "CA",
                            .node_guid = 0x0002c90300001234ULL,
                            .transport = Transport::ib}});
    v.push_back({t, "sysfs", DeviceList{{"mlx5_0", "mlx5_1"}}});
    PortStateSample ps;
    ps.port = PortRef{"mlx5_0", 1};
    ps.state = PortState::active;
    ps.lid = 7;
    ps.link_layer = LinkLayer::infiniband;
    ps.peer_node_guid = 0x0002c90300005678ULL;
    ps.peer_port = 17;
    ps.partition_enforcement_inbound = true;
    ps.partition_enforcement_outbound = false;
    v.push_back({t, "sysfs", ps});
    PKeyTableSample pk;
    pk.port = PortRef{"mlx5_0", 1};
    pk.view = PKeyView::sma;
    pk.table = PKeyTable{{0xffff, 0, 0x8001}, {1}};
    v.push_back({t, "mad", pk});
    CounterSample c;
    c.port = PortRef{"mlx5_0", 1};
    c.name = "p_key_violations";
    c.value = 65535;
    c.width = 16;
    c.kind = CounterKind::portinfo;
    v.push_back({t, "mad", c});
    v.push_back(
        {t, "verbs_events", AsyncEvent{"mlx5_0", 1u, AsyncEventType::pkey_change, std::nullopt}});
    MrEvent mr;
    mr.device = "mlx5_0";
    mr.mr = 17;
    mr.key = 0x1234;
    mr.owner = MrOwner{4242u, "fio"};
    mr.op = MrOp::local_inv;
    mr.status = WcStatus::wr_flush_err;
    v.push_back({t, "probe", mr});
    MrInventory inv;
    inv.device = "mlx5_0";
    inv.complete = false;
    inv.mrs.push_back({17, 4242u, "fio", 4096u, 0x10u, std::nullopt});
    MrInventory::Entry orphan;
    orphan.mr = 18;
    orphan.length = 8192;
    orphan.owner_gone = true;
    inv.mrs.push_back(orphan);
    v.push_back({t, "netlink", inv});
    SourceStatus st;
    st.up = true;
    st.event_coverage = {{"mlx5_0", {1, 2}}, {"mlx5_1", {}}};
    v.push_back({t, "verbs_events", st});
    v.push_back({t, "sysfs", SampleError{"mlx5_0:1 counters/symbol_error", "N/A (no PMA)", 22}});
    v.push_back({t, "partitions",
                 PartitionsConfText{"/etc/opensm/partitions.conf",
                                    "Default=0x7fff : ALL=full ;\n# caf\xc3\xa9\n",
                                    0x0002c90300001234ULL}});
    GidTable gids;
    gids.entries.push_back(
        GidEntry{0, *parse_gid("fe80::5054:ff:fe12:3456"), GidType::roce_v2, "eth0.100"});
    gids.entries.push_back(GidEntry{3, gid_from_ipv4(0xc0000201), GidType::roce_v1, "eth0"});
    gids.unreadable = {7};
    v.push_back({t, "sysfs", GidTableSample{PortRef{"rxe0", 1}, GidView::cache, gids}});
    v.push_back(
        {t, "tracefs",
         MrKernelBehaviour{FlushedMrHandling::destroyed, "6.1.0-18-amd64",
                           "the kernel's rpcrdma tracepoints have no xprtrdma_mr_recycle"}});
    v.push_back({t, "verbs", DeviceLimits{"rxe0", 262144u}});
    Consumer child;
    child.kind = ConsumerKind::ipoib;
    child.name = "ib0.8001";
    child.device = "mlx5_0";
    child.port = 1;
    child.pkey = 0x8001;
    child.parent = "ib0";
    child.carrier = false;
    child.carrier_changes = 3;
    v.push_back({t, "consumers", ConsumerInventory{"mlx5_0", {child}, true, {}}});
    return v;
}

TEST(ObservationJson, EveryKindRoundTripsExactly) {
    const auto all = one_of_each();
    ASSERT_EQ(all.size(), std::variant_size_v<ObservationBody>);
    for (const auto& o : all) {
        const auto line = observation_to_line(o);
        EXPECT_EQ(line.find('\n'), std::string::npos);
        auto back = observation_from_line(line);
        ASSERT_TRUE(back.ok()) << line << ": " << back.error().message;
        EXPECT_EQ(*back, o) << line;
    }
}

TEST(ObservationJson, TimesKeepNanoseconds) {
    EXPECT_EQ(format_time_ns(at_ns(1'764'685'746'000'000'001)), "2025-12-02T14:29:06.000000001Z");
}

TEST(ObservationJson, LayoutIsFlatWithKind) {
    PKeyTableSample pk;
    pk.port = PortRef{"mlx5_0", 1};
    pk.table.keys = {0xffff, 0x8001};
    const auto j = observation_to_json(Observation{at_ns(0), "sysfs", pk});
    EXPECT_EQ(j["kind"], "pkey_table");
    EXPECT_EQ(j["device"], "mlx5_0");
    EXPECT_EQ(j["port"], 1);
    EXPECT_EQ(j["view"], "device");
    EXPECT_EQ(j["table"]["keys"][1], "0x8001");
    EXPECT_EQ(j["time"], "1970-01-01T00:00:00.000000000Z");
}

TEST(ObservationJson, BadInputIsAnErrorNamingTheProblem) {
    struct Case {
        const char* line;
        const char* says;
    };
    const Case cases[] = {
        {"{", "not valid JSON"},
        {"[1,2]", "not a JSON object"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"nope"})",
         "unknown observation kind"},
        {R"({"source":"s","kind":"counter"})", "time"},
        {R"({"time":"yesterday","source":"s","kind":"counter"})", "RFC 3339"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"counter","device":"d","port":1,"name":"x"})",
         "field 'value': missing"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"pkey_table","device":"d","port":1,"view":"x","table":{"keys":[]}})",
         "unknown P_Key view"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"pkey_table","device":"d","port":1,"view":"device","table":{"keys":["0x1ffff"]}})",
         "not a P_Key"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"counter","device":"d","port":"one","name":"x","value":1})",
         "malformed observation"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"gid_table","device":"d","port":1,"view":"cache","table":{"entries":[{"index":0,"gid":"fe80::zz"}]}})",
         "not a GID"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"gid_table","device":"d","port":1,"view":"kernel","table":{"entries":[]}})",
         "unknown GID view"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"partitions_conf","path":"p"})",
         "field 'text': missing"},
        {R"({"time":"1970-01-01T00:00:00Z","source":"s","kind":"partitions_conf","path":"p","text":"","sm_port_guid":"0xZZ"})",
         "not a GUID"},
    };
    for (const auto& c : cases) {
        auto r = observation_from_line(c.line);
        ASSERT_FALSE(r.ok()) << c.line;
        EXPECT_NE(r.error().message.find(c.says), std::string::npos)
            << c.line << " -> " << r.error().message;
    }
}

// Every number is checked against its field's width and sign (checked_json.hpp): a value out of
// range is an error naming the field, never a wrapped or undefined value.
TEST(ObservationJson, NumbersOutOfTheirFieldsRangeAreErrorsNamingTheField) {
    const std::string head = R"({"time":"1970-01-01T00:00:00Z","source":"s",)";
    struct Case {
        std::string body;
        const char* says;
    };
    const Case cases[] = {
        {R"("kind":"counter","device":"d","port":1,"name":"x","value":655)" + std::string(67, '0') +
             "10}",
         "field 'value': expected an integer from 0 to 18446744073709551615, got 6.55e+71"},
        {R"("kind":"counter","device":"d","port":1,"name":"x","value":-1})",
         "field 'value': expected an integer from 0 to 18446744073709551615, got -1"},
        {R"("kind":"counter","device":"d","port":1,"name":"x","value":1,"width":300})",
         "field 'width': expected an integer from 0 to 255, got 300"},
        {R"("kind":"counter","device":"d","port":4294967296,"name":"x","value":1})",
         "field 'port': expected an integer from 0 to 4294967295"},
        {R"("kind":"counter","device":"d","port":true,"name":"x","value":1})",
         "field 'port': expected an integer, got a JSON boolean"},
        {R"("kind":"counter","device":"d","port":1.5,"name":"x","value":1})",
         "field 'port': expected an integer from 0 to 4294967295, got 1.5"},
        {R"("kind":"port_state","device":"d","port":1,"lmc":256})", "field 'lmc'"},
        {R"("kind":"async_event","device":"d","port":-2,"type":"port_active"})", "field 'port'"},
        {R"("kind":"mr_event","device":"d","mr":1,"op":"local_inv","status":"success","owner":{"pid":-1,"name":"x"}})",
         "field 'owner.pid'"},
        {R"("kind":"mr_inventory","device":"d","mrs":[{"mr":1},{"mr":2,"rkey":4294967296}]})",
         "field 'mrs.rkey'"},
        {R"("kind":"source_status","up":true,"event_coverage":[{"device":"d","ports":[1,-1]}]})",
         "field 'event_coverage.ports'"},
        {R"("kind":"sample_error","subject":"x","message":"m","code":2147483648})", "field 'code'"},
        {R"("kind":"pkey_table","device":"d","port":1,"view":"device","table":{"keys":["0xffff"],"unreadable":[70000]}})",
         "field 'table.unreadable'"},
    };
    for (const auto& c : cases) {
        const std::string line = head + c.body;
        auto r = observation_from_line(line);
        ASSERT_FALSE(r.ok()) << line;
        EXPECT_NE(r.error().message.find(c.says), std::string::npos)
            << line << " -> " << r.error().message;
    }
}

}  // namespace
}  // namespace rdmadiag::codec
