#include "collector/engine/consumers/consumer_rules.hpp"

#include <gtest/gtest.h>

#include "collector/engine/consumers/pkey_index.hpp"

namespace rdmadiag::engine::consumers {
namespace {

using namespace std::chrono_literals;

const TimePoint kNow = TimePoint{} + std::chrono::hours(24 * 365 * 50);
const PortRef kPort{"mlx5_0", 1};
const Gid kPortGid = parse_gid("fe80::2:c903:0:1235").value();

// mlx5_0:1 with `keys` in its device view and, when given, the last change of that view.
Snapshot port_with(std::vector<uint16_t> keys, std::optional<PKeyDiff> diff = std::nullopt,
                   std::vector<Gid> gids = {kPortGid}) {
    Snapshot s;
    DeviceSnapshot d;
    d.info.device = kPort.device;
    PortSnapshot p;
    p.ref = kPort;
    PKeyViewState v;
    v.view = PKeyView::device;
    v.table.keys = std::move(keys);
    v.generation = 2;
    p.pkeys.views.push_back(v);
    p.pkeys.last_diff = std::move(diff);
    PortGidState g;
    GidViewState cache;
    cache.view = GidView::cache;
    for (size_t i = 0; i < gids.size(); ++i)
        cache.table.entries.push_back(GidEntry{static_cast<uint16_t>(i), gids[i], GidType::ib, ""});
    g.views.push_back(cache);
    p.gids = SharedValue<PortGidState>(std::move(g));
    d.ports.push_back(std::move(p));
    s.devices.push_back(std::move(d));
    return s;
}

Consumer ipoib(const std::string& name, uint16_t pkey, const std::string& parent = "",
               std::optional<bool> carrier = true, std::optional<uint32_t> changes = 1) {
    Consumer c;
    c.kind = ConsumerKind::ipoib;
    c.name = name;
    c.device = kPort.device;
    c.port = kPort.port;
    c.pkey = pkey;
    c.parent = parent;
    c.qp_type = "UD";
    c.mode = "datagram";
    c.carrier = carrier;
    c.carrier_changes = changes;
    c.gid = kPortGid;
    return c;
}

std::vector<ConsumerInventory> host(std::vector<Consumer> consumers) {
    return {ConsumerInventory{kPort.device, std::move(consumers), true, {}}};
}

std::vector<Finding> judge(const std::vector<ConsumerInventory>& inv, const Snapshot& snap,
                           const CarrierHistory& carriers = {}, TimePoint now = kNow) {
    return judge_consumers(inv, snap, carriers, now, ConsumerRuleSettings{});
}

std::vector<std::string> rules(const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const auto& f : findings) out.push_back(f.rule);
    return out;
}

TEST(PkeyIndex, TheKernelsRuleFullMemberFirst) {
    PKeyTable t{{0xffff, 0x0001, 0x8001, 0x0002}, {}};
    EXPECT_EQ(find_pkey_index(t, 0x8001), 2);
    EXPECT_EQ(find_pkey_index(t, 0x0001), 2);  // the key's own membership bit does not matter
    EXPECT_EQ(find_pkey_index(t, 0x8002), 3);  // only a limited one: that one
    EXPECT_EQ(find_pkey_index(t, 0x8003), std::nullopt);
    t.unreadable = {2};
    EXPECT_EQ(find_pkey_index(t, 0x8001), 1);
    EXPECT_EQ(ipoib_pkey_index(ipoib("ib0", 0xffff), t), 0);  // a parent: index 0, whatever
    EXPECT_EQ(ipoib_pkey_index(ipoib("ib0.8003", 0x8003, "ib0"), t), std::nullopt);
}

TEST(ConsumerRules, AllWellSaysNothing) {
    const auto inv = host({ipoib("ib0", 0xffff), ipoib("ib0.8001", 0x8001, "ib0")});
    EXPECT_TRUE(judge(inv, port_with({0xffff, 0x8001})).empty());
}

TEST(ConsumerRules, AnAbsentKeyNamesItsConsumersAndTheirCarrier) {
    Consumer srp;
    srp.kind = ConsumerKind::srp;
    srp.name = "host7";
    srp.port = 1;
    srp.pkey = 0x8001;
    srp.gid = kPortGid;
    const auto inv = host({ipoib("ib0", 0xffff), ipoib("ib0.8001", 0x8001, "ib0", false), srp});
    const auto findings = judge(inv, port_with({0xffff, 0x8002}));
    ASSERT_EQ(rules(findings), std::vector<std::string>{"consumer.pkey_absent"});
    const auto& f = findings[0];
    EXPECT_EQ(f.subject.pkey, 0x8001);
    EXPECT_EQ(f.subject.port, 1u);
    EXPECT_NE(f.evidence.find("ib0.8001 (IPoIB child of ib0, carrier off)"), std::string::npos)
        << f.evidence;
    EXPECT_NE(f.evidence.find("host7 (SRP)"), std::string::npos) << f.evidence;
    EXPECT_EQ(f.evidence.find("still has"), std::string::npos);
    // Still carrier on: the kernel has not acted.
    const auto up = judge(host({ipoib("ib0.8001", 0x8001, "ib0", true)}), port_with({0xffff}));
    ASSERT_EQ(up.size(), 1u);
    EXPECT_NE(up[0].evidence.find("ib0.8001 still has its carrier"), std::string::npos)
        << up[0].evidence;
}

TEST(ConsumerRules, AnIncompleteTableJudgesNoAbsence) {
    auto snap = port_with({0xffff, 0});
    snap.devices.at(0).ports.at(0).pkeys.views.at(0).table.unreadable = {1};
    EXPECT_TRUE(judge(host({ipoib("ib0.8001", 0x8001, "ib0")}), snap).empty());
}

TEST(ConsumerRules, ALimitedMembershipOnlyIsSaid) {
    const auto findings =
        judge(host({ipoib("ib0.8001", 0x8001, "ib0")}), port_with({0xffff, 0x0001}));
    ASSERT_EQ(rules(findings), std::vector<std::string>{"consumer.limited_only"});
    EXPECT_EQ(findings[0].severity, Severity::info);
    EXPECT_EQ(findings[0].subject.pkey, 0x0001);
    EXPECT_NE(findings[0].evidence.find("holds only as 0x0001 (limited, index 1)"),
              std::string::npos)
        << findings[0].evidence;
}

PKeyDiff diff_of(std::vector<PKeyEntryChange> changes, TimePoint at) {
    PKeyDiff d;
    d.port = kPort;
    d.old_generation = 1;
    d.new_generation = 2;
    d.time = at;
    d.changes = std::move(changes);
    return d;
}

TEST(ConsumerRules, IndexZeroChangingUnderAParentIsAPartitionChange) {
    PKeyEntryChange ch;
    ch.kind = PKeyChangeKind::removed;
    ch.index = 0;
    ch.old_key = 0xffff;
    PKeyEntryChange add;
    add.kind = PKeyChangeKind::added;
    add.index = 0;
    add.new_key = 0x8001;
    const auto diff = diff_of({ch}, kNow - 10s);
    // The parent followed the SM: it reports the new key.
    auto findings = judge(host({ipoib("ib0", 0x8001)}), port_with({0x8001}, diff));
    ASSERT_EQ(rules(findings), std::vector<std::string>{"consumer.partition_changed"});
    EXPECT_EQ(findings[0].subject.index, 0);
    EXPECT_NE(findings[0].evidence.find("held 0xffff and holds 0x8001"), std::string::npos)
        << findings[0].evidence;
    EXPECT_NE(findings[0].evidence.find("(it followed)"), std::string::npos);
    // It did not.
    findings = judge(host({ipoib("ib0", 0xffff)}), port_with({0x8001}, diff));
    ASSERT_FALSE(findings.empty());
    EXPECT_NE(findings[0].evidence.find("still reports 0xffff"), std::string::npos)
        << findings[0].evidence;
    // An hour later it is over; a port without a parent interface has nothing to say.
    EXPECT_TRUE(
        judge(host({ipoib("ib0", 0x8001)}), port_with({0x8001}, diff), {}, kNow + 2h).empty());
    EXPECT_TRUE(judge(host({ipoib("ib0.8001", 0x8001, "ib0")}), port_with({0x8001}, diff)).empty());
}

TEST(ConsumerRules, AMovedKeyNamesItsUdConsumersAndWhetherTheyRestarted) {
    PKeyEntryChange moved;
    moved.kind = PKeyChangeKind::moved;
    moved.index = 3;
    moved.old_index = 1;
    moved.old_key = 0x8001;
    moved.new_key = 0x8001;
    const auto diff = diff_of({moved}, kNow - 90s);
    const auto snap = port_with({0xffff, 0, 0, 0x8001}, diff);
    const auto child = ipoib("ib0.8001", 0x8001, "ib0", true, 4);

    CarrierHistory restarted;
    restarted.record(kPort.device, ipoib("ib0.8001", 0x8001, "ib0", true, 2), kNow - 10min);
    restarted.record(kPort.device, child, kNow - 100s);  // bounced (2 -> 4) just before it was seen
    auto findings = judge(host({child}), snap, restarted);
    ASSERT_EQ(rules(findings), std::vector<std::string>{"consumer.index_moved"});
    EXPECT_EQ(findings[0].severity, Severity::info);
    EXPECT_EQ(findings[0].subject.pkey, 0x8001);
    EXPECT_NE(findings[0].evidence.find("moved from index 1 to 3"), std::string::npos);
    EXPECT_NE(findings[0].evidence.find("restarted (its carrier bounced)"), std::string::npos)
        << findings[0].evidence;

    CarrierHistory quiet;
    quiet.record(kPort.device, child, kNow - 10min);
    findings = judge(host({child}), snap, quiet);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].severity, Severity::warning);
    EXPECT_NE(findings[0].evidence.find("has not restarted in 1m"), std::string::npos)
        << findings[0].evidence;
    // Within the bound it is only pending.
    findings =
        judge(host({child}), port_with({0xffff, 0, 0, 0x8001}, diff_of({moved}, kNow - 5s)), quiet);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].severity, Severity::info);
    EXPECT_NE(findings[0].evidence.find("has not restarted yet"), std::string::npos);
}

TEST(ConsumerRules, AMoveWithOnlyUdQpsCountsThem) {
    PKeyEntryChange moved;
    moved.kind = PKeyChangeKind::moved;
    moved.index = 3;
    moved.old_index = 1;
    moved.old_key = moved.new_key = 0x8005;
    Consumer qps;
    qps.kind = ConsumerKind::qp;
    qps.name = qps.qp_type = "UD";
    qps.port = 1;
    qps.count = 12;
    const auto snap = port_with({0xffff, 0, 0, 0x8005}, diff_of({moved}, kNow - 5s));
    auto findings = judge(host({qps}), snap);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_NE(findings[0].evidence.find("12 UD QPs whose P_Key index"), std::string::npos)
        << findings[0].evidence;
    qps.qp_type = qps.name = "RC";
    EXPECT_TRUE(judge(host({qps}), snap).empty());
}

TEST(ConsumerRules, AGidThatLeftTheTableNamesItsConnections) {
    Consumer conn;
    conn.kind = ConsumerKind::cm_id;
    conn.name = "cm_id 5";
    conn.port = 1;
    conn.owner = ConsumerOwner{145u, "rping"};
    conn.qp_type = "RC";
    conn.gid = gid_from_address("192.0.2.1").value();
    auto findings = judge(host({conn}), port_with({0xffff}, std::nullopt, {kPortGid}));
    ASSERT_EQ(rules(findings), std::vector<std::string>{"consumer.gid_gone"});
    EXPECT_NE(findings[0].evidence.find("cm_id 5 (RDMA CM, rping pid 145, RC)"), std::string::npos)
        << findings[0].evidence;
    EXPECT_TRUE(
        judge(host({conn}), port_with({0xffff}, std::nullopt, {kPortGid, *conn.gid})).empty());
}

TEST(ConsumerRules, IndexesAreInferredFromThePortsTable) {
    auto inv = host(
        {ipoib("ib0", 0xffff), ipoib("ib0.8001", 0x8001, "ib0"), ipoib("ib0.8002", 0x8002, "ib0")});
    infer_indexes(inv, port_with({0xffff, 0x0001, 0x8001}), {}, {});
    const auto& c = inv[0].consumers;
    EXPECT_EQ(c[0].pkey_index, 0);
    EXPECT_EQ(c[0].index_source, IndexSource::inferred);
    EXPECT_EQ(c[1].pkey_index, 2);
    EXPECT_EQ(c[2].pkey_index, std::nullopt);
    EXPECT_EQ(c[2].index_source, IndexSource::none);
}

TEST(ConsumerRules, AChildThatDidNotRestartKeepsTheIndexItHad) {
    PKeyEntryChange moved;
    moved.kind = PKeyChangeKind::moved;
    moved.index = 3;
    moved.old_index = 1;
    moved.old_key = moved.new_key = 0x8001;
    const auto snap = port_with({0xffff, 0, 0, 0x8001}, diff_of({moved}, kNow - 90s));
    auto inv = host({ipoib("ib0.8001", 0x8001, "ib0", true, 1)});
    CarrierHistory quiet;
    quiet.record(kPort.device, inv[0].consumers[0], kNow - 10min);
    infer_indexes(inv, snap, quiet, {});
    EXPECT_EQ(inv[0].consumers[0].pkey_index, 1);
    CarrierHistory bounced = quiet;
    bounced.record(kPort.device, ipoib("ib0.8001", 0x8001, "ib0", true, 3), kNow - 85s);
    infer_indexes(inv, snap, bounced, {});
    EXPECT_EQ(inv[0].consumers[0].pkey_index, 3);
}

TEST(CarrierHistory, ARiseAfterTheMomentIsARestart) {
    CarrierHistory h;
    auto c = ipoib("ib0.8001", 0x8001, "ib0", true, 2);
    const auto since = kNow - 30s;
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", since, kNow),
              CarrierHistory::Restart::unknown);
    h.record("mlx5_0", c, kNow - 10s);  // first read after `since`, before the change was seen
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", since, kNow),
              CarrierHistory::Restart::not_seen);
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", kNow - 1min, kNow - 20s),
              CarrierHistory::Restart::unknown);  // first read after the change was seen
    h.record("mlx5_0", c, kNow + 1s);             // same count: nothing new
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", since, kNow),
              CarrierHistory::Restart::not_seen);
    c.carrier_changes = 4;
    h.record("mlx5_0", c, kNow + 2s);
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", since, kNow), CarrierHistory::Restart::seen);
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", kNow + 5s, kNow + 5s),
              CarrierHistory::Restart::not_seen);  // that bounce came before this change
    h.keep_only("mlx5_0", {});
    EXPECT_EQ(h.restarted_after("mlx5_0", "ib0.8001", since, kNow),
              CarrierHistory::Restart::unknown);
}

}  // namespace
}  // namespace rdmadiag::engine::consumers
