// The MAD source against a simulated subnet (ibsim + opensm, tests/beds/ibsim/with-bed). Every
// value rdmadiag reads is checked against infiniband-diags (smpquery, perfquery) on the same bed.
// Run through CTest, which starts the bed; run directly without one, every test skips.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "collector/engine/default/default_engine.hpp"
#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"
#include "tests/collector/sources/mad/ibsim_bed.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::mad {
namespace {

using namespace ibsim_bed;
// smpquery pkeys output: "   0: 0xffff 0x8001 ..." rows, then "N pkeys capacity".
std::vector<uint16_t> smpquery_pkeys(uint32_t lid, uint32_t port, bool is_switch) {
    std::string cmd = "smpquery pkeys " + std::to_string(lid);
    if (is_switch) cmd += " " + std::to_string(port);
    std::istringstream in(run(cmd));
    std::vector<uint16_t> keys;
    std::string line;
    while (std::getline(in, line)) {
        auto colon = line.find(':');
        if (colon == std::string::npos || line.find("capacity") != std::string::npos) continue;
        std::istringstream row(line.substr(colon + 1));
        std::string word;
        while (row >> word) keys.push_back(static_cast<uint16_t>(std::stoul(word, nullptr, 16)));
    }
    return keys;
}

std::map<std::string, uint64_t> perfquery(uint32_t lid, uint32_t port) {
    std::istringstream in(run("perfquery " + std::to_string(lid) + " " + std::to_string(port)));
    std::map<std::string, uint64_t> values;
    std::string line;
    static const std::regex row(R"(^(\w+):\.*(\d+)$)");
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, row)) values[m[1]] = std::stoull(m[2]);
    }
    return values;
}

struct Sweep {
    std::vector<Observation> obs;
    mad::MadEngineStats stats;

    template <class T>
    std::vector<T> all() const {
        std::vector<T> out;
        for (const auto& o : obs) {
            if (auto* v = std::get_if<T>(&o.body)) out.push_back(*v);
        }
        return out;
    }
    const PKeyTableSample* table(const PortRef& ref, PKeyView view) const {
        for (const auto& o : obs) {
            auto* t = std::get_if<PKeyTableSample>(&o.body);
            if (t && t->port == ref && t->view == view) return t;
        }
        return nullptr;
    }
    const PortStateSample* state(const PortRef& ref) const {
        for (const auto& o : obs) {
            auto* s = std::get_if<PortStateSample>(&o.body);
            if (s && s->port == ref) return s;
        }
        return nullptr;
    }
    std::optional<uint64_t> counter(const PortRef& ref, const std::string& name) const {
        for (const auto& o : obs) {
            auto* c = std::get_if<CounterSample>(&o.body);
            if (c && c->port == ref && c->name == name) return c->value;
        }
        return std::nullopt;
    }
    bool is_switch(const std::string& device) const {
        for (const auto& d : all<DeviceInfo>()) {
            if (d.device == device) return d.node_type == "switch";
        }
        return false;
    }
};

Sweep sweep(std::map<std::string, std::string> extra = {}, TimePoint now = TimePoint{}) {
    sources::SourceSettings settings;
    settings.extra = {{"mad.scope", "subnet"}, {"mad.sm_key", "0x1"}};
    for (auto& [k, v] : extra) settings.extra[k] = v;
    auto source = make_mad_source(::rdmadiag::test::resolved(settings, "mad", mad_options()));
    EXPECT_TRUE(source.ok());
    sources::VectorSink sink;
    (*source)->poll(now, sink);
    return Sweep{std::move(sink.observations), static_cast<MadSource&>(**source).last_stats()};
}

// ibsim's GUIDs: HcaN is 0x100000 + 3*(N-1), SwitchN is 0x200000 + N-1.
PortRef hca(int n, uint32_t port) {
    return PortRef{mad::guid_device_name(0x100000 + 3 * (n - 1)), port};
}
PortRef sw(int n, uint32_t port) {
    return PortRef{mad::guid_device_name(0x200000 + (n - 1)), port};
}

class MadIbsim : public ::testing::Test {
protected:
    void SetUp() override {
        if (bed_dir() == nullptr)
            GTEST_SKIP() << "no ibsim bed (run through ctest: tests/beds/ibsim/with-bed)";
    }
};

TEST_F(MadIbsim, EveryPortsPKeyTableEqualsSmpquery) {
    Sweep s = sweep();
    auto states = s.all<PortStateSample>();
    ASSERT_EQ(states.size(), 16u + 2u * 13u)
        << "8 dual-port HCAs and 2 switches with 12 ports + port 0";
    size_t compared = 0;
    for (const auto& st : states) {
        const auto* sma = s.table(st.port, PKeyView::sma);
        ASSERT_NE(sma, nullptr) << st.port.to_string();
        EXPECT_TRUE(sma->table.complete());
        auto ref = smpquery_pkeys(*st.lid, st.port.port, s.is_switch(st.port.device));
        EXPECT_EQ(sma->table.keys, ref) << st.port.to_string() << " lid " << *st.lid;
        // With the SM_Key, opensm tells its intent; after SUBNET UP it matches what linked ports
        // hold. It has no intent for unlinked switch ports (all zero there).
        if (const auto* sm = s.table(st.port, PKeyView::sm); sm && st.phys_state == 5) {
            EXPECT_EQ(sm->table.keys, sma->table.keys) << st.port.to_string();
        }
        ++compared;
    }
    EXPECT_EQ(compared, states.size());
    // The partitions of the fixture are on the tables: Hca2 port 1 has Default, Storage, Compute,
    // Backup.
    const auto* h2 = s.table(hca(2, 1), PKeyView::sma);
    ASSERT_NE(h2, nullptr);
    EXPECT_EQ(std::vector<uint16_t>(h2->table.keys.begin(), h2->table.keys.begin() + 4),
              (std::vector<uint16_t>{0xffff, 0x8001, 0x8002, 0x8003}));
    const auto* h3 = s.table(hca(3, 1), PKeyView::sma);
    ASSERT_NE(h3, nullptr);
    EXPECT_EQ(h3->table.keys[2], 0x0002) << "Hca3 port 1 is a limited member of Compute";
}

TEST_F(MadIbsim, CountersEqualPerfquery) {
    Sweep s = sweep();
    size_t ports = 0;
    for (const auto& st : s.all<PortStateSample>()) {
        if (s.is_switch(st.port.device) && st.port.port == 0) continue;
        auto ref = perfquery(*st.lid, st.port.port);
        ASSERT_FALSE(ref.empty()) << st.port.to_string();
        // Error counters do not move on their own: they must be equal.
        const std::pair<const char*, const char*> exact[] = {
            {"symbol_error", "SymbolErrorCounter"},
            {"link_error_recovery", "LinkErrorRecoveryCounter"},
            {"link_downed", "LinkDownedCounter"},
            {"port_rcv_errors", "PortRcvErrors"},
            {"port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors"},
            {"port_rcv_switch_relay_errors", "PortRcvSwitchRelayErrors"},
            {"port_xmit_discards", "PortXmitDiscards"},
            {"port_xmit_constraint_errors", "PortXmitConstraintErrors"},
            {"port_rcv_constraint_errors", "PortRcvConstraintErrors"},
            {"local_link_integrity_errors", "LocalLinkIntegrityErrors"},
            {"excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors"},
            {"VL15_dropped", "VL15Dropped"},
            {"port_xmit_wait", "PortXmitWait"},
        };
        for (auto [ours, theirs] : exact) {
            ASSERT_TRUE(s.counter(st.port, ours).has_value()) << st.port.to_string() << " " << ours;
            EXPECT_EQ(*s.counter(st.port, ours), ref.at(theirs))
                << st.port.to_string() << " " << ours;
        }
        // Traffic counters count MADs, perfquery's among them: ours were read first.
        const std::pair<const char*, const char*> rising[] = {{"port_xmit_data", "PortXmitData"},
                                                              {"port_rcv_data", "PortRcvData"},
                                                              {"port_xmit_packets", "PortXmitPkts"},
                                                              {"port_rcv_packets", "PortRcvPkts"}};
        for (auto [ours, theirs] : rising) {
            ASSERT_TRUE(s.counter(st.port, ours).has_value()) << st.port.to_string() << " " << ours;
            EXPECT_LE(*s.counter(st.port, ours), ref.at(theirs))
                << st.port.to_string() << " " << ours;
        }
        ++ports;
    }
    EXPECT_EQ(ports, 16u + 2u * 12u);
}

TEST_F(MadIbsim, PartitionsEditIsSeenWithItsPerIndexDiff) {
    auto engine = engine::make_default_engine();
    Sweep before = sweep({}, TimePoint{} + std::chrono::seconds(1));
    for (const auto& o : before.obs) engine->consume(o);
    auto snap1 = engine->snapshot();
    const auto* p1 = snap1->find_port(hca(2, 1));
    ASSERT_NE(p1, nullptr);
    const PKeyViewState* sma1 = p1->pkeys.find(PKeyView::sma);
    ASSERT_NE(sma1, nullptr);
    if (sma1 == nullptr) return;
    uint64_t gen1 = sma1->generation;
    std::vector<uint16_t> old_keys = sma1->table.keys;

    bed_ctl("partitions " + fixture("partitions.changed.conf"));
    Sweep after = sweep({}, TimePoint{} + std::chrono::seconds(2));
    for (const auto& o : after.obs) engine->consume(o);
    auto snap2 = engine->snapshot();
    const auto* p2 = snap2->find_port(hca(2, 1));
    ASSERT_NE(p2, nullptr);
    const auto* sma2 = p2->pkeys.find(PKeyView::sma);
    ASSERT_NE(sma2, nullptr);
    if (sma2 == nullptr) return;
    EXPECT_GT(sma2->generation, gen1);
    // Per index: Compute's slot is now a hole, Archive took a free slot, the rest kept theirs.
    std::map<size_t, std::pair<uint16_t, uint16_t>> diff;
    for (size_t i = 0; i < old_keys.size(); ++i) {
        if (old_keys[i] != sma2->table.keys.at(i)) diff[i] = {old_keys[i], sma2->table.keys[i]};
    }
    EXPECT_EQ(diff, (std::map<size_t, std::pair<uint16_t, uint16_t>>{{2, {0x8002, 0x0000}},
                                                                     {4, {0x0000, 0x8004}}}));
    EXPECT_EQ(sma2->table.keys, smpquery_pkeys(*after.state(hca(2, 1))->lid, 1, false));
    const auto* h3 = after.table(hca(3, 1), PKeyView::sma);
    ASSERT_NE(h3, nullptr);
    EXPECT_EQ(h3->table.keys[2], 0x0000) << "Hca3 port 1 lost the limited Compute key: a hole";
    EXPECT_EQ(h3->table.keys[1], 0x8001) << "Storage keeps its index";
    // The sm view follows the edit too.
    const auto* sm = after.table(hca(2, 1), PKeyView::sm);
    ASSERT_NE(sm, nullptr);
    EXPECT_EQ(sm->table.keys, sma2->table.keys);

    // A further key goes after the last index opensm gave (5): while the table has room the hole
    // at index 2 stays a hole (MadIbsimReuse shows what happens when it has none).
    bed_ctl("partitions " + fixture("partitions.reuse.conf"));
    Sweep third = sweep({}, TimePoint{} + std::chrono::seconds(3));
    const auto* t3 = third.table(hca(2, 1), PKeyView::sma);
    ASSERT_NE(t3, nullptr);
    EXPECT_EQ(t3->table.keys, smpquery_pkeys(*third.state(hca(2, 1))->lid, 1, false));
    EXPECT_NE(std::find(t3->table.keys.begin(), t3->table.keys.end(), 0x8005),
              t3->table.keys.end());
    EXPECT_EQ(t3->table.keys[4], 0x8004) << "Archive keeps the index it took";
    EXPECT_EQ(t3->table.keys[5], 0x8005) << "Media goes after the last index given";
    EXPECT_EQ(t3->table.keys[2], 0x0000) << "the hole is not reused while there is room";
    bed_ctl("partitions " + fixture("partitions.conf"));
}

// Runs on a bed of its own (CTest mad_ibsim_reuse_test): it fills Hca2 port 1's table, which
// changes how opensm places every later key on that port.
class MadIbsimReuse : public MadIbsim {};

TEST_F(MadIbsimReuse, AHoleGivenToAnotherKeyIsAReusedIndex) {
    auto engine = engine::make_default_engine();
    auto feed = [&](const Sweep& s) {
        for (const auto& o : s.obs) engine->consume(o);
    };
    feed(sweep({}, TimePoint{} + std::chrono::seconds(1)));
    bed_ctl("partitions " + fixture("partitions.changed.conf"));  // Compute leaves index 2
    Sweep holed = sweep({}, TimePoint{} + std::chrono::seconds(2));
    feed(holed);
    const auto* t2 = holed.table(hca(2, 1), PKeyView::sma);
    ASSERT_NE(t2, nullptr);
    EXPECT_EQ(t2->table.keys.at(2), 0x0000) << "a hole";
    FindingSubject removed{hca(2, 1).device, 1, uint16_t{2}, uint16_t{0x8002}, {}};
    EXPECT_NE(engine->findings().find("pkey.removed", removed), nullptr);

    bed_ctl("partitions " + fixture("partitions.full.conf"));  // 60 keys more: the table is full
    Sweep full = sweep({}, TimePoint{} + std::chrono::seconds(3));
    feed(full);
    const auto* t3 = full.table(hca(2, 1), PKeyView::sma);
    ASSERT_NE(t3, nullptr);
    EXPECT_EQ(t3->table.keys, smpquery_pkeys(*full.state(hca(2, 1))->lid, 1, false));
    ASSERT_EQ(t3->table.keys.size(), 64u);
    EXPECT_EQ(t3->table.keys[2], 0x804b) << "opensm gave the hole to the key that found no room";
    EXPECT_EQ(std::count(t3->table.keys.begin(), t3->table.keys.end(), 0), 0) << "full";
    // opensm says so itself.
    std::ifstream log(std::string(bed_dir()) + "/osm.log");
    std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("Reusing PKeyTable block index 0 pkey index 2 for pkey 0x804b"),
              std::string::npos);

    // The diff: 59 keys appended at 5..63 reuse nothing; 0x804b at 2 reuses 0x8002's index.
    auto snap = engine->snapshot();
    const auto* port = snap->find_port(hca(2, 1));
    ASSERT_NE(port, nullptr);
    ASSERT_TRUE(port->pkeys.last_diff.has_value());
    const auto& changes = port->pkeys.last_diff->changes;
    EXPECT_EQ(changes.size(), 60u);
    size_t reused = 0;
    for (const auto& c : changes) {
        EXPECT_EQ(c.kind, PKeyChangeKind::added) << engine::pkey::describe_change(c);
        if (c.index == 2) {
            EXPECT_EQ(c.new_key, 0x804b);
            EXPECT_EQ(c.previous_key, 0x8002);
            EXPECT_EQ(engine::pkey::describe_change(c),
                      "0x804b added at index 2, reusing the index of 0x8002");
        }
        if (c.previous_key) ++reused;
    }
    EXPECT_EQ(reused, 1u);
    FindingSubject subject{hca(2, 1).device, 1, uint16_t{2}, uint16_t{0x804b}, {}};
    const auto* f = engine->findings().find("pkey.index_reused", subject);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("reusing the index of 0x8002 (sma generation 2 -> 3"),
              std::string::npos)
        << f->evidence;
    // Elsewhere only switch ports' packed tables shifted (Switch1 port 2 follows Hca2 port 1):
    // their diffs say so, but nothing addresses a switch port's table by index, so no finding.
    for (const auto& other : snap->findings) {
        if (other.rule == "pkey.index_reused") {
            EXPECT_EQ(other.subject, subject);
        }
    }
    bool switch_port_reused = false;
    for (const auto& d : snap->pkey_changes) {
        if (d.port != sw(1, 2) || d.view != PKeyView::sma) continue;
        for (const auto& c : d.changes) switch_port_reused |= c.previous_key.has_value();
    }
    EXPECT_TRUE(switch_port_reused);
    // The SM's intent (SA PKeyTableRecord) carries the same reuse.
    bool sm_reuse = false;
    for (const auto& d : snap->pkey_changes) {
        if (d.port != hca(2, 1) || d.view != PKeyView::sm) continue;
        for (const auto& c : d.changes) {
            if (c.index == 2 && c.previous_key == 0x8002 && c.new_key == 0x804b) sm_reuse = true;
        }
    }
    EXPECT_TRUE(sm_reuse);
}

TEST_F(MadIbsim, ConstraintCountersSetByPerformanceSetAreSeen) {
    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortRcvConstraintErrors=5'");
    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortXmitConstraintErrors=300'");
    Sweep s;
    for (int i = 0; i < 50; ++i) {  // the console is asynchronous: poll for it to land
        s = sweep();
        if (s.counter(hca(2, 1), "port_rcv_constraint_errors").value_or(0) == 5) break;
    }
    EXPECT_EQ(s.counter(hca(2, 1), "port_rcv_constraint_errors"), 5u);
    auto xmit = s.counter(hca(2, 1), "port_xmit_constraint_errors");
    ASSERT_TRUE(xmit.has_value());
    EXPECT_EQ(*xmit, perfquery(*s.state(hca(2, 1))->lid, 1).at("PortXmitConstraintErrors"));
    EXPECT_LE(*xmit, 255u) << "an 8-bit counter";
    auto engine = engine::make_default_engine();
    for (const auto& o : s.obs) engine->consume(o);
    auto snap = engine->snapshot();
    const auto* port = snap->find_port(hca(2, 1));
    ASSERT_NE(port, nullptr);
    bool seen = false;
    for (const auto& c : port->counters) {
        if (c.name == "port_rcv_constraint_errors") seen = true;
    }
    EXPECT_TRUE(seen);
    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortRcvConstraintErrors=0'");
    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortXmitConstraintErrors=0'");
}

TEST_F(MadIbsim, ConstraintErrorsAfterAPartitionEditRaiseViolationsAfterChange) {
    using std::chrono::milliseconds;
    auto engine = engine::make_default_engine();
    auto feed = [&](const Sweep& s) {
        for (const auto& o : s.obs) engine->consume(o);
    };
    feed(sweep({}, TimePoint{} + milliseconds(1000)));
    bed_ctl("partitions " + fixture("partitions.changed.conf"));
    feed(sweep({}, TimePoint{} + milliseconds(2000)));
    const auto* changed = engine->snapshot()->find_port(hca(2, 1));
    ASSERT_NE(changed, nullptr);
    ASSERT_TRUE(changed->pkeys.last_diff.has_value()) << "the edit is seen as a table change";

    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortRcvConstraintErrors=5'");
    for (int i = 0; i < 50; ++i) {  // the console is asynchronous: poll for it to land
        Sweep s = sweep({}, TimePoint{} + milliseconds(3000 + 100 * i));
        feed(s);
        if (s.counter(hca(2, 1), "port_rcv_constraint_errors").value_or(0) == 5) break;
    }
    FindingSubject subject{hca(2, 1).device, 1, {}, {}, {}};
    const auto* f = engine->findings().find("pkey.violations_after_change", subject);
    EXPECT_NE(f, nullptr) << "constraint errors rose within the window after the edit";
    if (f != nullptr) {
        EXPECT_EQ(f->severity, Severity::critical);
        EXPECT_NE(f->evidence.find("port_rcv_constraint_errors"), std::string::npos) << f->evidence;
    }
    // Elsewhere nothing rose: no other port has the finding.
    for (const auto& other : engine->snapshot()->findings) {
        if (other.rule == "pkey.violations_after_change") {
            EXPECT_EQ(other.subject, subject);
        }
    }

    bed_ctl("console 'PerformanceSet \"Hca2\"[1] PortCounters.PortRcvConstraintErrors=0'");
    bed_ctl("partitions " + fixture("partitions.conf"));
}

TEST_F(MadIbsim, LinkFlapIsSeen) {
    Sweep up = sweep();
    ASSERT_NE(up.state(sw(1, 3)), nullptr);
    EXPECT_EQ(up.state(sw(1, 3))->state, PortState::active);
    bed_ctl("console 'Unlink \"Hca3\"[1]'");
    Sweep down;
    for (int i = 0; i < 50; ++i) {
        down = sweep();
        const auto* st = down.state(sw(1, 3));
        if (st && st->state == PortState::down) break;
    }
    ASSERT_NE(down.state(sw(1, 3)), nullptr);
    EXPECT_EQ(down.state(sw(1, 3))->state, PortState::down);
    EXPECT_EQ(down.state(hca(3, 1)), nullptr) << "no route reaches Hca3 port 1 any more";
    EXPECT_NE(down.state(hca(3, 2)), nullptr) << "Hca3 is still there through port 2";
    bed_ctl("console 'ReLink \"Hca3\"[1]'");
    bed_ctl("sighup");  // opensm brings the port back to Active on its next sweep
    Sweep again;
    for (int i = 0; i < 50; ++i) {
        again = sweep();
        const auto* st = again.state(sw(1, 3));
        if (st && st->state == PortState::active && again.state(hca(3, 1))) break;
        bed_ctl("sighup");
    }
    ASSERT_NE(again.state(sw(1, 3)), nullptr);
    EXPECT_EQ(again.state(sw(1, 3))->state, PortState::active);
    EXPECT_NE(again.state(hca(3, 1)), nullptr);
}

TEST_F(MadIbsim, DroppedMadsCostRetriesAndOnlyTheirPort) {
    // ibsim drops every P_KeyTable (attribute 22) MAD that reaches Hca4 port 1.
    bed_ctl("console 'Error \"Hca4\"[1] 100 22'");
    Sweep s = sweep({{"mad.timeout", "30ms"}, {"mad.retries", "2"}});
    bed_ctl("console 'Error \"Hca4\"[1] 0'");
    EXPECT_GT(s.stats.retries, 0u);
    EXPECT_GT(s.stats.timeouts, 0u);
    const auto* bad = s.table(hca(4, 1), PKeyView::sma);
    ASSERT_NE(bad, nullptr) << "the table is reported, with every index unreadable";
    EXPECT_FALSE(bad->table.complete());
    bool port_error = false;
    for (const auto& e : s.all<SampleError>()) {
        if (e.subject == hca(4, 1).to_string() && e.message.find("P_KeyTable") != std::string::npos)
            port_error = true;
    }
    EXPECT_TRUE(port_error);
    // Everything else was read.
    size_t complete = 0;
    for (const auto& t : s.all<PKeyTableSample>()) {
        if (t.view == PKeyView::sma && t.table.complete()) ++complete;
    }
    EXPECT_EQ(complete, 16u + 2u * 13u - 1u);
    EXPECT_NE(s.state(hca(4, 1)), nullptr) << "its PortInfo still answered";
    for (const auto& st : s.all<SourceStatus>()) EXPECT_TRUE(st.up);
}

TEST_F(MadIbsim, LocalScopeReadsThisHostsPorts) {
    sources::SourceSettings settings;
    auto source = make_mad_source(settings);
    ASSERT_TRUE(source.ok());
    ASSERT_TRUE((*source)->availability().available) << (*source)->availability().reason;
    sources::VectorSink sink;
    (*source)->poll(TimePoint{}, sink);
    Sweep s{std::move(sink.observations), {}};
    auto tables = s.all<PKeyTableSample>();
    ASSERT_EQ(tables.size(), 2u) << "Hca1 has two ports";
    for (const auto& t : tables) {
        const auto* st = s.state(t.port);
        ASSERT_NE(st, nullptr);
        EXPECT_EQ(t.table.keys, smpquery_pkeys(*st->lid, t.port.port, false)) << t.port.to_string();
        EXPECT_TRUE(s.counter(t.port, "p_key_violations").has_value());
    }
}

}  // namespace
}  // namespace rdmadiag::mad
