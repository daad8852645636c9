// The sweep against a small fabric played by a scripted transport: SA discovery, the
// directed-route walk, P_Key blocks with the switch port in the modifier, PMA counters, the SM's
// records behind the SM_Key, and MADs that never come back.

#include "collector/sources/mad/mad_sweep.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>

#include "collector/sources/mad/sa_records.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"

namespace rdmadiag::mad {
namespace {

using test::FakeFabric;
using test::FakeNode;
using test::FakePort;

// One switch (LID 3, 4 ports, enforcement cap 32); CA "a" (LIDs 1, 2) with both ports on it;
// CA "b" (LID 4) on port 3; switch port 4 unlinked. MADs leave from a's port 1.
FakeFabric small_fabric() {
    FakeFabric f;
    std::vector<uint16_t> ca_keys(64, 0), sw_keys(32, 0);
    ca_keys[0] = 0xffff, ca_keys[1] = 0x8001, ca_keys[40] = 0x0002;  // index 40 is in block 1
    sw_keys[0] = 0xffff, sw_keys[2] = 0x8003;
    FakeNode a{0xa00, 1, 64, 0, "a", {}};
    a.ports.resize(3);
    a.ports[1] = FakePort{1, 2, 1, ca_keys, ca_keys, 0};
    a.ports[2] = FakePort{2, 2, 2, ca_keys, ca_keys, 7};
    a.ports[2].pkeys[1] = 0x8005;  // port 2 differs, so the arrival port matters
    a.ports[2].sm_pkeys = a.ports[2].pkeys;
    FakeNode b{0xb00, 1, 64, 0, "b", {}};
    b.ports.resize(2);
    b.ports[1] = FakePort{4, 2, 3, ca_keys, ca_keys, 0};
    b.ports[1].sm_pkeys[3] = 0x8009;  // the SM intends a key b does not hold yet
    FakeNode sw{0x5000, 2, 16, 32, "sw", {}};
    sw.ports.resize(5);
    sw.ports[0] = FakePort{3, -1, 0, std::vector<uint16_t>(16, 0), {}, 0};
    sw.ports[0].pkeys[0] = 0xffff;
    sw.ports[1] = FakePort{0, 0, 1, sw_keys, sw_keys, 0};
    sw.ports[2] = FakePort{0, 0, 2, sw_keys, sw_keys, 0};
    sw.ports[3] = FakePort{0, 1, 1, sw_keys, sw_keys, 0};
    sw.ports[3].pkeys[5] = 0x8007;
    sw.ports[4] = FakePort{0, -1, 0, sw_keys, sw_keys, 0};
    f.nodes = {a, b, sw};
    return f;
}

const NodeReading* node(const SubnetReading& r, uint64_t guid) {
    for (const auto& n : r.nodes) {
        if (n.info.node_guid == guid) return &n;
    }
    return nullptr;
}
const PortReading* port(const NodeReading* n, uint8_t p) {
    if (n == nullptr) return nullptr;
    for (const auto& x : n->ports) {
        if (x.port == p) return &x;
    }
    return nullptr;
}

void expect_tables_match(const SubnetReading& r, const FakeFabric& f) {
    for (const FakeNode& fn : f.nodes) {
        const NodeReading* n = node(r, fn.guid);
        ASSERT_NE(n, nullptr) << fn.desc;
        EXPECT_EQ(n->description, fn.desc);
        for (uint8_t p = fn.type == 2 ? 0 : 1; p < fn.ports.size(); ++p) {
            const PortReading* pr = port(n, p);
            ASSERT_NE(pr, nullptr) << fn.desc << ":" << int(p);
            ASSERT_TRUE(pr->sma_pkeys.has_value()) << fn.desc << ":" << int(p);
            EXPECT_EQ(*pr->sma_pkeys, fn.ports[p].pkeys) << fn.desc << ":" << int(p);
            EXPECT_TRUE(pr->sma_unreadable.empty());
        }
    }
}

struct SweepBed {
    FakeFabric fabric;
    MadEngine engine;
    explicit SweepBed(FakeFabric f)
        : fabric(std::move(f)), engine(fabric, MadEngineOptions{}, [this] { return fabric.now; }) {}
};

TEST(MadSweep, SaDiscoveryReadsEveryTableAndCounter) {
    SweepBed run(small_fabric());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    SubnetReading r = sweeper.sweep_subnet();
    EXPECT_EQ(r.discovery, "sa");
    EXPECT_TRUE(r.errors.empty()) << r.errors.front();
    ASSERT_EQ(r.nodes.size(), 3u);
    expect_tables_match(r, run.fabric);
    // Switch external ports: block | port << 16; CAs: block alone, the arrival port decides.
    std::set<uint32_t> mods(run.fabric.pkey_modifiers.begin(), run.fabric.pkey_modifiers.end());
    EXPECT_TRUE(mods.count(0x30000));
    EXPECT_TRUE(mods.count(0x1)) << "a CA's 64-entry table takes two blocks";
    EXPECT_FALSE(mods.count(0x30001)) << "a switch port's 32-entry table is one block";
    // Counters, per port select.
    const PortReading* a2 = port(node(r, 0xa00), 2);
    ASSERT_NE(a2, nullptr);
    bool rcv = false;
    for (const auto& c : a2->counters) {
        if (c.name == "port_rcv_constraint_errors") rcv = c.value == 7 && c.width == 8;
        if (c.name == "port_xmit_data") {
            EXPECT_EQ(c.value, 1002u);
        }
    }
    EXPECT_TRUE(rcv);
    EXPECT_FALSE(port(node(r, 0x5000), 0)->counters.size()) << "no PortCounters for switch port 0";
    // The unlinked switch port is there, Down.
    ASSERT_TRUE(port(node(r, 0x5000), 4)->info.has_value());
    EXPECT_EQ(port(node(r, 0x5000), 4)->info->port_state, 1);
}

TEST(MadSweep, SmViewNeedsTheSmKey) {
    {
        SweepBed run(small_fabric());
        MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1, .sm_key = 0x1});
        SubnetReading r = sweeper.sweep_subnet();
        const PortReading* b1 = port(node(r, 0xb00), 1);
        ASSERT_NE(b1, nullptr);
        ASSERT_TRUE(b1->sm_pkeys.has_value());
        EXPECT_EQ(*b1->sm_pkeys, run.fabric.nodes[1].ports[1].sm_pkeys);
        EXPECT_NE(*b1->sm_pkeys, *b1->sma_pkeys) << "intent and port differ at index 3";
        const PortReading* sw3 = port(node(r, 0x5000), 3);
        ASSERT_TRUE(sw3->sm_pkeys.has_value());
        EXPECT_EQ(*sw3->sm_pkeys, run.fabric.nodes[2].ports[3].sm_pkeys);
    }
    {
        SweepBed run(small_fabric());
        MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1, .sm_key = 0x2});
        SubnetReading r = sweeper.sweep_subnet();
        const PortReading* b1 = port(node(r, 0xb00), 1);
        ASSERT_NE(b1, nullptr);
        EXPECT_FALSE(b1->sm_pkeys.has_value()) << "a refused query gives no intent at all";
        ASSERT_FALSE(b1->errors.empty());
        EXPECT_NE(b1->errors.front().find("PKeyTableRecord"), std::string::npos);
        EXPECT_TRUE(b1->sma_pkeys.has_value()) << "the SMA view does not depend on the SA";
    }
}

TEST(MadSweep, WithoutAnSaTheDirectedRouteWalkFindsTheSameSubnet) {
    FakeFabric f = small_fabric();
    f.sa = false;
    SweepBed run(std::move(f));
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    SubnetReading r = sweeper.sweep_subnet();
    EXPECT_EQ(r.discovery, "directed-route");
    ASSERT_FALSE(r.errors.empty());
    EXPECT_NE(r.errors.front().find("SA discovery failed"), std::string::npos);
    ASSERT_EQ(r.nodes.size(), 3u);
    expect_tables_match(r, run.fabric);
    // CA a is found once, with both of its ports (port 2 through the switch).
    EXPECT_EQ(port(node(r, 0xa00), 2)->route.path, (DrPath{1, 2}));
    EXPECT_EQ(port(node(r, 0xa00), 2)->pma_lid, 2);
}

// Every linked port's peer as the fabric is cabled; an unlinked port has none.
void expect_peers_match(const SubnetReading& r, const FakeFabric& f) {
    for (const FakeNode& fn : f.nodes) {
        for (uint8_t p = 1; p < fn.ports.size(); ++p) {
            const PortReading* pr = port(node(r, fn.guid), p);
            ASSERT_NE(pr, nullptr) << fn.desc << ":" << int(p);
            const FakePort& cabled = fn.ports[p];
            if (cabled.peer_node < 0) {
                EXPECT_FALSE(pr->peer.has_value()) << fn.desc << ":" << int(p);
                continue;
            }
            ASSERT_TRUE(pr->peer.has_value()) << fn.desc << ":" << int(p);
            EXPECT_EQ(*pr->peer, (PortPeer{f.nodes[cabled.peer_node].guid, cabled.peer_port}))
                << fn.desc << ":" << int(p);
        }
    }
}

TEST(MadSweep, BothDiscoveriesFindWhichPortEachPortIsCabledTo) {
    SweepBed by_sa(small_fabric());
    SubnetReading sa = MadSweeper(by_sa.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    EXPECT_EQ(sa.discovery, "sa");
    EXPECT_TRUE(sa.errors.empty()) << sa.errors.front();
    expect_peers_match(sa, by_sa.fabric);

    FakeFabric no_sa = small_fabric();
    no_sa.sa = false;
    SweepBed walked(std::move(no_sa));
    SubnetReading dr = MadSweeper(walked.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    EXPECT_EQ(dr.discovery, "directed-route");
    expect_peers_match(dr, walked.fabric);

    // A pass over the known topology keeps them.
    SubnetReading again =
        MadSweeper(by_sa.engine, SweepOptions{.sm_lid = 1}).sweep_known(topology_of(sa), {});
    expect_peers_match(again, by_sa.fabric);
}

// What partitions.conf names a port by: each CA port's own GUID (the fake fabric's is its
// node's GUID plus the port number), from either discovery and kept by a pass over the known
// topology.
void expect_port_guids(const SubnetReading& r, const FakeFabric& f) {
    for (const FakeNode& fn : f.nodes) {
        if (fn.type == 2) continue;
        for (uint8_t p = 1; p < fn.ports.size(); ++p) {
            const PortReading* pr = port(node(r, fn.guid), p);
            ASSERT_NE(pr, nullptr) << fn.desc << ":" << int(p);
            EXPECT_EQ(pr->guid, std::optional<uint64_t>(fn.guid + p)) << fn.desc << ":" << int(p);
        }
    }
}

TEST(MadSweep, BothDiscoveriesGiveEachCaPortItsOwnGuid) {
    SweepBed by_sa(small_fabric());
    SubnetReading sa = MadSweeper(by_sa.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    ASSERT_EQ(sa.discovery, "sa");
    expect_port_guids(sa, by_sa.fabric);
    SubnetReading again =
        MadSweeper(by_sa.engine, SweepOptions{.sm_lid = 1}).sweep_known(topology_of(sa), {});
    expect_port_guids(again, by_sa.fabric);

    FakeFabric no_sa = small_fabric();
    no_sa.sa = false;
    SweepBed walked(std::move(no_sa));
    SubnetReading dr = MadSweeper(walked.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    ASSERT_EQ(dr.discovery, "directed-route");
    expect_port_guids(dr, walked.fabric);
}

TEST(MadSweep, LinkRecordsTheSaDoesNotGiveCostOnlyThePeers) {
    FakeFabric f = small_fabric();
    f.sa_answers_links = false;
    SweepBed run(std::move(f));
    SubnetReading r = MadSweeper(run.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    EXPECT_EQ(r.discovery, "sa");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors.front().find("SA LinkRecord table"), std::string::npos) << r.errors.front();
    expect_tables_match(r, run.fabric);
    EXPECT_FALSE(port(node(r, 0xa00), 1)->peer.has_value());
}

TEST(MadSweep, SwitchPortsSayWhetherTheyEnforcePartitions) {
    FakeFabric f = small_fabric();
    f.nodes[2].ports[1].enforce_inbound = true;
    f.nodes[2].ports[1].enforce_outbound = true;
    f.nodes[2].ports[3].enforce_outbound = true;
    SweepBed run(std::move(f));
    SubnetReading r = MadSweeper(run.engine, SweepOptions{.sm_lid = 1}).sweep_subnet();
    const PortReading* sw1 = port(node(r, 0x5000), 1);
    const PortReading* sw3 = port(node(r, 0x5000), 3);
    ASSERT_TRUE(sw1->info && sw3->info);
    EXPECT_TRUE(sw1->info->partition_enforcement_inbound);
    EXPECT_TRUE(sw1->info->partition_enforcement_outbound);
    EXPECT_FALSE(sw3->info->partition_enforcement_inbound);
    EXPECT_TRUE(sw3->info->partition_enforcement_outbound);
}

TEST(MadSweep, ALostPKeyBlockCostsOnlyItsPort) {
    FakeFabric f = small_fabric();
    f.drop.insert({4, attr::pkey_table});  // b's SMA never answers P_KeyTable
    SweepBed run(std::move(f));
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    SubnetReading r = sweeper.sweep_subnet();
    const PortReading* b1 = port(node(r, 0xb00), 1);
    ASSERT_NE(b1, nullptr);
    EXPECT_EQ(b1->sma_unreadable.size(), 64u);
    ASSERT_FALSE(b1->errors.empty());
    EXPECT_NE(b1->errors.front().find("P_KeyTable block"), std::string::npos);
    EXPECT_TRUE(b1->info.has_value());
    EXPECT_FALSE(b1->counters.empty());
    EXPECT_EQ(*port(node(r, 0xa00), 1)->sma_pkeys, run.fabric.nodes[0].ports[1].pkeys);
    EXPECT_GT(run.engine.stats().retries, 0u);
}

TEST(MadSweep, LocalScopeReadsOnlyTheLocalNode) {
    SweepBed run(small_fabric());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    // umad knew port 1 only (as a simulator's sysfs does); port 2 is found from NodeInfo.
    SubnetReading r = sweeper.sweep_local({{1, 1, true}});
    EXPECT_EQ(r.discovery, "local");
    ASSERT_EQ(r.nodes.size(), 1u);
    ASSERT_EQ(r.nodes[0].ports.size(), 2u);
    EXPECT_EQ(*port(&r.nodes[0], 1)->sma_pkeys, run.fabric.nodes[0].ports[1].pkeys);
    EXPECT_EQ(*port(&r.nodes[0], 2)->sma_pkeys, run.fabric.nodes[0].ports[2].pkeys)
        << "port 2's table is read at its own LID, not through port 1";
}

// small_fabric with GUID tables: a's port 1 holds 32 GUIDs, two of them aliases (one in block 2),
// and the SM means a third; port 2 holds 8; the switch's port 0 one; and the SM's prefix is not
// the one the ports hold yet.
FakeFabric fabric_with_guids() {
    FakeFabric f = small_fabric();
    FakePort& a1 = f.nodes[0].ports[1];
    a1.guid_cap = 32;
    a1.alias_guids = std::vector<uint64_t>(16, 0);
    a1.alias_guids[0] = 0xa1a1;   // index 1
    a1.alias_guids[15] = 0xa1b2;  // index 16
    a1.sm_alias_guids = a1.alias_guids;
    a1.sm_alias_guids[2] = 0xa1c3;  // index 3: assigned, not yet in the port
    f.nodes[0].ports[2].guid_cap = 8;
    f.nodes[1].ports[1].guid_cap = 8;
    f.nodes[2].ports[0].guid_cap = 1;
    f.sm_gid_prefix = 0xfec0000000000001ull;
    return f;
}

TEST(MadSweep, LocalScopeReadsEveryGuidBlockAndTheSmsRecordsOfItsPorts) {
    SweepBed run(fabric_with_guids());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1, .sm_key = 0x1});
    SubnetReading r = sweeper.sweep_local({{1, 1, true}});
    ASSERT_EQ(r.nodes.size(), 1u);
    const PortReading* a1 = port(&r.nodes[0], 1);
    ASSERT_NE(a1, nullptr);
    ASSERT_NE(a1->guid_table, nullptr);
    const PortGuidTable& t1 = *a1->guid_table;
    ASSERT_EQ(t1.sma.size(), 32u);
    EXPECT_EQ(t1.sma[0], 0xa01u) << "GUID 0 is the port GUID";
    EXPECT_EQ(t1.sma[1], 0xa1a1u);
    EXPECT_EQ(t1.sma[16], 0xa1b2u);
    EXPECT_EQ(t1.sma[3], 0u);
    EXPECT_TRUE(t1.sma_unreadable.empty());
    EXPECT_EQ(t1.sm_prefix, 0xfec0000000000001ull);
    ASSERT_EQ(t1.sm.size(), 32u);
    EXPECT_EQ(t1.sm[0], 0xa01u);
    EXPECT_EQ(t1.sm[3], 0xa1c3u);
    EXPECT_TRUE(t1.sm_unreadable.empty());
    EXPECT_EQ(a1->info->gid_prefix, 0xfe80000000000000ull);
    EXPECT_EQ(a1->info->guid_cap, 32);
    const PortReading* a2 = port(&r.nodes[0], 2);
    ASSERT_NE(a2, nullptr);
    ASSERT_NE(a2->guid_table, nullptr) << "port 2 is read at its own LID";
    EXPECT_EQ(a2->guid_table->sma, (std::vector<uint64_t>{0xa02, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_TRUE(a2->errors.empty()) << a2->errors.front();
    std::multiset<uint32_t> blocks(run.fabric.guid_info_modifiers.begin(),
                                   run.fabric.guid_info_modifiers.end());
    EXPECT_EQ(blocks, (std::multiset<uint32_t>{0, 0, 1, 2, 3}))
        << "4 blocks of port 1, 1 of port 2";
}

TEST(MadSweep, LocalScopeAsksTheSaAboutGidsOnlyWithTheSmKey) {
    SweepBed run(fabric_with_guids());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    SubnetReading r = sweeper.sweep_local({{1, 1, true}});
    const PortReading* a1 = port(&r.nodes[0], 1);
    ASSERT_NE(a1->guid_table, nullptr);
    EXPECT_FALSE(a1->guid_table->sm_prefix.has_value());
    EXPECT_TRUE(a1->guid_table->sm.empty());
    EXPECT_EQ(a1->guid_table->sma[1], 0xa1a1u);
}

TEST(MadSweep, ASubnetSweepReadsNoMadForGids) {
    uint64_t sent_without = 0;
    {
        SweepBed run(small_fabric());
        MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1, .sm_key = 0x1});
        sweeper.sweep_subnet();
        sent_without = run.engine.stats().sent;
    }
    SweepBed run(fabric_with_guids());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1, .sm_key = 0x1});
    SubnetReading r = sweeper.sweep_subnet();
    EXPECT_EQ(run.engine.stats().sent, sent_without) << "GID 0 is PortInfo and the port GUID";
    EXPECT_TRUE(run.fabric.guid_info_modifiers.empty());
    for (const NodeReading& n : r.nodes) {
        for (const PortReading& p : n.ports) EXPECT_EQ(p.guid_table, nullptr);
    }
    EXPECT_EQ(port(node(r, 0xb00), 1)->info->gid_prefix, 0xfe80000000000000ull);
    EXPECT_EQ(port(node(r, 0xb00), 1)->guid, 0xb01u);
}

TEST(MadSweep, AKnownTopologyIsReadAgainWithoutDiscovery) {
    SweepBed run(small_fabric());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    const SubnetReading first = sweeper.sweep_subnet();
    const uint64_t full = run.engine.stats().sent;
    const auto topology = topology_of(first);
    ASSERT_EQ(topology.size(), 3u);
    EXPECT_FALSE(topology[0].ports[1].info.has_value()) << "port readings are not carried over";

    // Tables only: PortInfo and P_Key blocks; no SA NodeRecords, SwitchInfo, descriptions, PMA.
    const SubnetReading tables = sweeper.sweep_known(topology, SweepParts{true, false});
    const uint64_t table_mads = run.engine.stats().sent - full;
    EXPECT_EQ(tables.discovery, "known");
    expect_tables_match(tables, run.fabric);
    for (const auto& n : tables.nodes) {
        for (const auto& p : n.ports) EXPECT_TRUE(p.counters.empty());
    }
    EXPECT_LT(table_mads, full);

    // Counters only: no P_Key blocks, and ClassPortInfo is not asked again.
    const size_t modifiers = run.fabric.pkey_modifiers.size();
    const SubnetReading counters = sweeper.sweep_known(topology, SweepParts{false, true});
    EXPECT_EQ(run.fabric.pkey_modifiers.size(), modifiers);
    EXPECT_FALSE(port(node(counters, 0xa00), 2)->counters.empty());
    EXPECT_FALSE(port(node(counters, 0xa00), 2)->sma_pkeys.has_value());
}

TEST(MadSweep, ALinkThatComesUpOrGoesDownIsAShapeChange) {
    SweepBed run(small_fabric());
    MadSweeper sweeper(run.engine, SweepOptions{.sm_lid = 1});
    auto topology = topology_of(sweeper.sweep_subnet());
    EXPECT_FALSE(links_changed(sweeper.sweep_known(topology, SweepParts{false, false})));
    // Something is plugged into the switch's free port 4: its link comes up.
    run.fabric.nodes[2].ports[4].peer_node = 1;
    const SubnetReading up = sweeper.sweep_known(topology, SweepParts{false, false});
    EXPECT_TRUE(links_changed(up));
    topology = topology_of(up);
    EXPECT_FALSE(links_changed(sweeper.sweep_known(topology, SweepParts{false, false})))
        << "once seen, the new link is the shape";
    // And unplugged again.
    run.fabric.nodes[2].ports[4].peer_node = -1;
    EXPECT_TRUE(links_changed(sweeper.sweep_known(topology, SweepParts{false, false})));
}

}  // namespace
}  // namespace rdmadiag::mad
