#include "collector/json/snapshot_json.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::codec {
namespace {

TimePoint at_ms(int64_t ms) {
    return TimePoint{std::chrono::milliseconds(ms)};
}

Snapshot full_snapshot() {
    Snapshot s;
    s.sequence = 42;
    s.time = at_ms(1'764'685'746'123);
    DeviceSnapshot d;
    d.info = DeviceInfo{.device = "mlx5_0",
                        .node_type = "CA",
                        .node_guid = 0x0002c90300001234ULL,
                        .fw_ver = "20.31.1014",
                        .hca_type = "MT4123",
                        .transport = Transport::ib};
    d.source = "sysfs";
    d.updated = at_ms(1000);
    PortSnapshot p;
    p.ref = PortRef{"mlx5_0", 1};
    p.info.port = p.ref;
    p.info.state = PortState::active;
    p.info.lid = 3;
    p.info.link_layer = LinkLayer::infiniband;
    p.info.gids = {"fe80:0000:0000:0000:0002:c903:0000:1235"};
    p.updated = at_ms(1000);
    PKeyViewState v;
    v.view = PKeyView::device;
    v.table = PKeyTable{{0xffff, 0x0000, 0x8001}, {1}};
    v.generation = 3;
    v.changed = at_ms(500);
    v.confirmed = at_ms(900);
    v.source = "sysfs";
    p.pkeys.views.push_back(v);
    PortGidState g;
    GidViewState gv;
    gv.view = GidView::sma;
    gv.table.entries.push_back(GidEntry{0, *parse_gid("fec0::2:c903:0:1235"), GidType::ib, {}});
    gv.generation = 2;
    gv.changed = at_ms(600);
    gv.confirmed = at_ms(900);
    gv.source = "mad";
    g.views.push_back(gv);
    g.coherence = GidCoherence::stale;
    g.note = "differs since then";
    g.differs_since = at_ms(600);
    g.gid_change_events = 1;
    g.last_gid_change = at_ms(650);
    g.last_changes = {GidDiff{p.ref, GidView::sma, 1, 2, at_ms(600), {}, gv.table.entries}};
    p.gids = std::move(g);
    CounterState c;
    c.name = "port_rcv_constraint_errors";
    c.width = 8;
    c.raw = 255;
    c.total = 300;
    c.saturated = true;
    c.updated = at_ms(1000);
    p.counters.push_back(c);
    d.ports.push_back(p);
    s.devices.push_back(d);
    s.sources.push_back(SourceSnapshot{"sysfs", true, "", 10, 1, at_ms(1000)});
    Finding f;
    f.rule = "pkey.cache_stale";
    f.severity = Severity::critical;
    f.subject = FindingSubject{"mlx5_0", 1, 2, 0x8001, {}};
    f.since = at_ms(700);
    f.evidence = "cache generation 2, device generation 3";
    f.advice = "restart the consumer";
    s.findings.push_back(f);
    f.cleared = at_ms(800);
    s.finding_history.push_back(f);
    s.events.push_back(
        EventRecord{at_ms(600), "verbs", AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}}});
    s.errors.push_back(ErrorRecord{at_ms(600), "sysfs",
                                   SampleError{"mlx5_0:1 counters/symbol_error", "EINVAL", 22}});
    MrRecord m;
    m.device = "mlx5_0";
    m.mr = 17;
    m.key = 0x1234;
    m.owner = MrOwner{4242, "fio"};
    m.state = MrState::stuck;
    m.last_op = MrOp::fastreg;
    m.last_status = WcStatus::mw_bind_err;
    s.mrs.mrs.push_back(m);
    return s;
}

TEST(SnapshotJson, RoundTripsEveryPart) {
    const auto s = full_snapshot();
    const auto text = snapshot_to_json(s).dump();
    auto back = parse_snapshot_json(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->sequence, s.sequence);
    EXPECT_EQ(back->time, s.time);
    EXPECT_EQ(back->devices, s.devices);
    EXPECT_EQ(back->sources, s.sources);
    EXPECT_EQ(back->findings, s.findings);
    EXPECT_EQ(back->finding_history, s.finding_history);
    EXPECT_EQ(back->events, s.events);
    EXPECT_EQ(back->errors, s.errors);
    EXPECT_EQ(back->mrs, s.mrs);
}

TEST(SnapshotJson, StableFieldNames) {
    const auto j = snapshot_to_json(full_snapshot());
    EXPECT_EQ(j["version"], 1);
    const auto& port = j["devices"][0]["ports"][0];
    EXPECT_EQ(j["devices"][0]["info"]["node_guid"], "0x0002c90300001234");
    EXPECT_EQ(port["info"]["state"], "ACTIVE");
    EXPECT_EQ(port["pkeys"]["views"][0]["table"]["keys"][2], "0x8001");
    EXPECT_EQ(port["pkeys"]["views"][0]["used"], 2);
    EXPECT_EQ(port["counters"][0]["saturated"], true);
    EXPECT_EQ(j["findings"][0]["id"], "pkey.cache_stale/mlx5_0:1 index 2 pkey 0x8001");
    EXPECT_EQ(j["events"][0]["type"], "PKEY_CHANGE");
    EXPECT_EQ(j["mrs"]["mrs"][0]["state"], "stuck");
}

TEST(SnapshotJson, MalformedInputIsAnErrorNotACrash) {
    EXPECT_FALSE(parse_snapshot_json("").ok());
    EXPECT_FALSE(parse_snapshot_json("{").ok());
    EXPECT_FALSE(parse_snapshot_json("[]").ok());
    EXPECT_FALSE(parse_snapshot_json(R"({"version":2})").ok());
    EXPECT_FALSE(parse_snapshot_json(R"({"version":1,"devices":"x"})").ok());
    EXPECT_FALSE(parse_snapshot_json(R"({"version":1,"devices":[{"info":{}}]})").ok());
    EXPECT_FALSE(parse_snapshot_json(R"({"version":1,"time":"noon"})").ok());
    EXPECT_FALSE(
        parse_snapshot_json(R"({"version":1,"events":[{"device":"d","type":"BOGUS"}]})").ok());
    auto e = parse_snapshot_json(
        R"({"version":1,"devices":[{"info":{"device":"d"},"ports":[{"device":"d","port":1,"pkeys":{"views":[{"view":"device","table":{"keys":["0x1"],"unreadable":[5]}}]}}]}]})");
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("unreadable"), std::string::npos);
    EXPECT_TRUE(parse_snapshot_json(R"({"version":1})").ok());
}

// The GUI and `--remote` read this JSON from a daemon: a number out of its field's range is an
// error naming the field, never a wrapped or undefined value.
TEST(SnapshotJson, NumbersOutOfTheirFieldsRangeAreErrorsNamingTheField) {
    struct Case {
        const char* text;
        const char* says;
    };
    const Case cases[] = {
        {R"({"version":4294967297})", "field 'version': expected an integer from"},
        {R"({"version":1,"sequence":-1})", "field 'sequence': expected an integer from 0 to"},
        {R"({"version":1,"devices":[{"info":{"device":"d"},"ports":[{"device":"d","port":-1}]}]})",
         "field 'devices.ports.port': expected an integer from 0 to 4294967295, got -1"},
        {R"({"version":1,"devices":[{"info":{"device":"d","lid":1e30}}]})",
         "field 'devices.info.lid'"},
        {R"({"version":1,"devices":[{"info":{"device":"d"},"ports":[{"device":"d","port":1,"counters":[{"name":"x","kind":"pma","total":184467440737095516150}]}]}]})",
         "field 'devices.ports.counters.total'"},
        {R"({"version":1,"sources":[{"name":"sysfs","observations":-5}]})",
         "field 'sources.observations'"},
        {R"({"version":1,"findings":[{"rule":"r","severity":"warning","subject":{"device":"d","index":65536}}]})",
         "field 'findings.subject.index'"},
        {R"({"version":1,"mrs":{"devices":[{"device":"d","by_state":{"stuck":-3}}]}})",
         "field 'mrs.devices.by_state'"},
    };
    for (const auto& c : cases) {
        auto r = parse_snapshot_json(c.text);
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_NE(r.error().message.find(c.says), std::string::npos)
            << c.text << " -> " << r.error().message;
    }
}

// Event counts are held in 32 bits: a larger count (from an older recording) stops there.
TEST(SnapshotJson, EventCountsBeyondThirtyTwoBitsStopThere) {
    auto r = parse_snapshot_json(
        R"({"version":1,"devices":[{"info":{"device":"d"},"ports":[{"device":"d","port":1,"counters":[{"name":"x","kind":"pma","resets":8589934592,"wraps":7}]}]}]})");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto& c = r->devices[0].ports[0].counters[0];
    EXPECT_EQ(c.resets, UINT32_MAX);
    EXPECT_EQ(c.wraps, 7u);
}

}  // namespace
}  // namespace rdmadiag::codec
