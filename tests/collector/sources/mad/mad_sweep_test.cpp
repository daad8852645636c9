// The sweep against a small fabric played by a scripted transport: SA discovery, the
// directed-route walk, P_Key blocks with the switch port in the modifier, PMA counters, the SM's
// records behind the SM_Key, and MADs that never come back.

#include "collector/sources/mad/mad_sweep.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>

#include "collector/sources/mad/sa_records.hpp"

namespace rdmadiag::mad {
namespace {

struct FakePort {
    uint16_t lid = 0;  // CA ports; a switch's LID is on port 0
    int peer_node = -1;
    uint8_t peer_port = 0;
    std::vector<uint16_t> pkeys;
    std::vector<uint16_t> sm_pkeys;  // what the SM says it programmed
    uint8_t rcv_constraint = 0;
};

struct FakeNode {
    uint64_t guid = 0;
    uint8_t type = 1;
    uint16_t partition_cap = 64;
    uint16_t enforcement_cap = 32;
    std::string desc;
    std::vector<FakePort> ports;  // index = port number; [0] used by switches
};

class FakeFabric final : public MadTransport {
public:
    std::vector<FakeNode> nodes;
    bool sa = true;
    uint64_t sm_key = 0x1;
    uint16_t sm_lid = 1;
    std::set<std::pair<uint16_t, uint16_t>> drop;  // (lid, attr)
    std::chrono::steady_clock::time_point now{};
    std::vector<uint32_t> pkey_modifiers;  // every P_KeyTable modifier asked for

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int) override {
        std::vector<uint8_t> r(mad.begin(), mad.end());
        r.resize(256);
        r[3] = static_cast<uint8_t>(r[3] | 0x80);
        uint16_t attr_id = get16(mad, 16);
        uint32_t mod = get32(mad, 20);
        if (drop.count({addr.dlid, attr_id})) return {};
        switch (agent) {
            case Agent::smi_lid: {
                auto [n, arrival] = by_lid(addr.dlid);
                if (n < 0) return {};
                answer_smp(r, n, arrival, attr_id, mod);
                break;
            }
            case Agent::smi_dr: {
                int n = 0;
                uint8_t arrival = 1;
                uint8_t hops = mad[7];
                for (uint8_t i = 1; i <= hops; ++i) {
                    const FakePort& out = nodes[n].ports.at(mad[128 + i]);
                    if (out.peer_node < 0) return {};  // no link: lost
                    arrival = out.peer_port;
                    n = out.peer_node;
                }
                r[4] = 0x80;  // D bit on the way back
                answer_smp(r, n, arrival, attr_id, mod);
                break;
            }
            case Agent::pma: {
                auto [n, arrival] = by_lid(addr.dlid);
                if (n < 0) return {};
                (void)arrival;
                std::span<uint8_t> d(r.data() + 64, 192);
                if (attr_id == attr::class_port_info) {
                    put16(d, 2, kPmaXmitWait);
                } else if (attr_id == attr::port_counters) {
                    uint8_t p = mad[64 + 1];
                    d[1] = p;
                    d[17] = nodes[n].ports.at(p).rcv_constraint;
                    put32(d, 24, 1000u + p);
                }
                break;
            }
            case Agent::sa:
                if (!sa || addr.dlid != sm_lid) return {};
                if (!answer_sa(r, mad)) return {};
                break;
        }
        queue_.push_back({agent, 0, std::move(r)});
        return {};
    }
    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
        if (queue_.empty()) {
            now += timeout;
            return std::optional<ReceivedMad>{};
        }
        auto m = std::move(queue_.front());
        queue_.pop_front();
        return std::optional<ReceivedMad>{std::move(m)};
    }

private:
    std::pair<int, uint8_t> by_lid(uint16_t lid) const {
        for (size_t n = 0; n < nodes.size(); ++n) {
            for (size_t p = 0; p < nodes[n].ports.size(); ++p) {
                if (nodes[n].ports[p].lid == lid && lid != 0)
                    return {static_cast<int>(n), static_cast<uint8_t>(p)};
            }
        }
        return {-1, 0};
    }
    void node_info(std::span<uint8_t> d, const FakeNode& node, uint8_t arrival) const {
        d[0] = 1, d[1] = 1, d[2] = node.type;
        d[3] = static_cast<uint8_t>(node.ports.size() - 1);
        put64(d, 4, node.guid);
        put64(d, 12, node.guid);
        put64(d, 20, node.guid + arrival);
        put16(d, 28, node.partition_cap);
        d[36] = arrival;
    }
    void answer_smp(std::vector<uint8_t>& r, int n, uint8_t arrival, uint16_t attr_id,
                    uint32_t mod) {
        const FakeNode& node = nodes[n];
        std::span<uint8_t> d(r.data() + 64, 64);
        bool is_switch = node.type == 2;
        switch (attr_id) {
            case attr::node_info:
                node_info(d, node, arrival);
                break;
            case attr::node_description:
                std::copy(node.desc.begin(), node.desc.end(), d.begin());
                break;
            case attr::switch_info:
                put16(d, 14, node.enforcement_cap);
                break;
            case attr::port_info: {
                uint8_t p = static_cast<uint8_t>(mod == 0 ? arrival : mod);
                const FakePort& port = node.ports.at(p);
                put16(d, 16, is_switch ? node.ports[0].lid : port.lid);
                put16(d, 18, sm_lid);
                bool up = p == 0 || port.peer_node >= 0;
                d[32] = up ? 4 : 1;
                d[33] = static_cast<uint8_t>((up ? 5 : 2) << 4);
                d[28] = p;
                break;
            }
            case attr::pkey_table: {
                pkey_modifiers.push_back(mod);
                uint8_t p = is_switch ? static_cast<uint8_t>(mod >> 16) : arrival;
                uint16_t block = mod & 0xffff;
                const auto& keys = node.ports.at(p).pkeys;
                for (size_t i = 0; i < 32 && block * 32 + i < keys.size(); ++i)
                    put16(d, 2 * i, keys[block * 32 + i]);
                break;
            }
            default:
                r[5] = 0x0c;
                break;
        }
    }
    bool answer_sa(std::vector<uint8_t>& r, Bytes mad) {
        uint16_t attr_id = get16(mad, 16);
        if (attr_id == attr::node_record) {
            std::vector<std::vector<uint8_t>> recs;
            for (const FakeNode& node : nodes) {
                for (uint8_t p = 0; p < node.ports.size(); ++p) {
                    bool listed = node.type == 2 ? p == 0 : node.ports[p].lid != 0;
                    if (!listed) continue;
                    std::vector<uint8_t> rec(112, 0);
                    put16(rec, 0, node.ports[p].lid);
                    node_info(std::span<uint8_t>(rec.data() + 4, 40), node, p);
                    std::copy(node.desc.begin(), node.desc.end(), rec.begin() + 44);
                    recs.push_back(rec);
                }
            }
            // As the kernel hands over a reassembled RMPP answer: one buffer, every record.
            r.resize(56);
            put16(r, 44, 14);
            for (auto& rec : recs) r.insert(r.end(), rec.begin(), rec.end());
            return true;
        }
        if (attr_id == attr::pkey_table_record) {
            if (get64(mad, 36) != sm_key) {
                r[4] = 0x00, r[5] = 0x1c;  // untrusted request: refused
                return true;
            }
            uint16_t lid = get16(mad, 56), block = get16(mad, 58);
            uint8_t port = mad[60];
            auto [n, arrival] = by_lid(lid);
            if (n < 0) return false;
            uint8_t p = nodes[n].type == 2 ? port : arrival;
            put16(r, 44, 9);
            std::span<uint8_t> rec(r.data() + 56, 72);
            std::fill(rec.begin(), rec.end(), 0);
            put16(rec, 0, lid), put16(rec, 2, block), rec[4] = p;
            const auto& keys = nodes[n].ports.at(p).sm_pkeys;
            for (size_t i = 0; i < 32 && block * 32 + i < keys.size(); ++i)
                put16(rec, 8 + 2 * i, keys[block * 32 + i]);
            return true;
        }
        return false;
    }
    std::deque<ReceivedMad> queue_;
};

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

}  // namespace
}  // namespace rdmadiag::mad
