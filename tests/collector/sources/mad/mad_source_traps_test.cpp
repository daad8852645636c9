// The subnet-scope MAD source on the fake fabric, with traps: a Report of trap 128 brings
// discovery forward to the next poll, one of trap 144 has that node's P_Key tables read again
// at once, and a refusing SA costs nothing but the figures and an error.

#include <gtest/gtest.h>

#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"
#include "tests/collector/sources/mad/trap_notices.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::mad {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

struct Bed {
    test::FakeFabric* fabric = nullptr;
    std::unique_ptr<MadSource> source;
    TimePoint now{seconds(1'700'000'000)};

    explicit Bed(bool sa_takes_subscriptions = true) {
        auto f = std::make_unique<test::FakeFabric>(
            test::fat_tree({.leaves = 2, .spines = 1, .hosts_per_leaf = 2}));
        f->sa_takes_subscriptions = sa_takes_subscriptions;
        fabric = f.get();
        const test::FakeNode& host = f->nodes[3];  // fat_tree: MADs leave from the first host
        LocalCa local;
        local.name = "fake0";
        local.node_type = 1;
        local.node_guid = host.guid;
        local.ports.push_back(
            LocalPort{1, host.ports[1].lid, f->sm_lid, 4, 5, host.guid + 1, "IB"});
        MadSourceOptions o;
        o.subnet = true;
        o.traps = true;
        o.subnet_intervals = SweepIntervals{minutes(10), seconds(10), seconds(30)};
        source = std::make_unique<MadSource>(o, std::move(f), std::move(local));
    }
    double figure(std::string_view name) const {
        for (const auto& f : source->figures())
            if (f.name == name) return f.value;
        ADD_FAILURE() << "no figure " << name;
        return -1;
    }
    sources::VectorSink poll_after(Duration d) {
        now += d;
        sources::VectorSink sink;
        source->poll(now, sink);
        return sink;
    }
};

TEST(MadSourceTraps, ATrap128BringsDiscoveryForwardToTheNextPoll) {
    Bed bed;
    bed.poll_after(Duration::zero());
    EXPECT_EQ(bed.figure("mad_sweep_discoveries_total"), 1.0);
    EXPECT_EQ(bed.figure("mad_trap_subscription_up"), 1.0);
    EXPECT_EQ(bed.fabric->subscriptions.size(), 4u);
    bed.poll_after(seconds(10));  // tables are due, discovery is not: ten minutes away
    EXPECT_EQ(bed.figure("mad_sweep_discoveries_total"), 1.0);

    bed.fabric->forward_trap(test::link_state_notice(bed.fabric->nodes[0].ports[0].lid), 90);
    bed.poll_after(seconds(10));
    EXPECT_EQ(bed.figure("mad_sweep_discoveries_total"), 2.0);
    EXPECT_EQ(bed.figure("mad_trap_discoveries_total"), 1.0);
    EXPECT_EQ(bed.figure("mad_traps_link_state_change_total"), 1.0);
    ASSERT_EQ(bed.fabric->report_responses.size(), 1u);
    EXPECT_EQ(get64(bed.fabric->report_responses[0], 8), 90u);
    // A discovery renews the subscriptions (an SM restarted at the same LID forgot them).
    EXPECT_EQ(bed.fabric->subscriptions.size(), 8u);

    bed.poll_after(seconds(10));
    EXPECT_EQ(bed.figure("mad_sweep_discoveries_total"), 2.0);
}

TEST(MadSourceTraps, ATrap144HasThatNodesTablesReadAgainAtOnce) {
    Bed bed;
    bed.poll_after(Duration::zero());
    test::FakeNode& other = bed.fabric->nodes[5];  // the third host, on the second leaf
    other.ports[1].pkeys[2] = 0x8007;              // the SM gave it a key since the last pass
    bed.fabric->forward_trap(test::local_changes_notice(other.ports[1].lid, 0x02510868, 0), 91);
    bed.now += seconds(1);
    sources::VectorSink sink;
    bed.source->on_readable(-1, bed.now, sink);
    ASSERT_EQ(bed.fabric->report_responses.size(), 1u);
    std::set<std::string> devices;
    bool seen = false;
    for (const Observation& o : sink.observations) {
        const auto* t = std::get_if<PKeyTableSample>(&o.body);
        if (t == nullptr) continue;
        devices.insert(t->port.device);
        if (t->port.port == 1) {
            for (uint16_t key : t->table.keys) seen = seen || key == 0x8007;
        }
    }
    EXPECT_EQ(devices, (std::set<std::string>{guid_device_name(other.guid)}));
    EXPECT_TRUE(seen);
    EXPECT_EQ(bed.figure("mad_trap_node_reads_total"), 1.0);
    EXPECT_EQ(bed.figure("mad_sweep_discoveries_total"), 1.0);
}

TEST(MadSourceTraps, ARefusingSaLeavesTheSchedulesWorking) {
    Bed bed(false);
    auto sink = bed.poll_after(Duration::zero());
    EXPECT_EQ(bed.figure("mad_trap_subscription_up"), 0.0);
    bool said = false;
    for (const Observation& o : sink.observations) {
        if (const auto* e = std::get_if<SampleError>(&o.body); e && e->subject == "mad traps")
            said = e->message.find("Subscribe=0") != std::string::npos;
        if (const auto* s = std::get_if<SourceStatus>(&o.body)) {
            EXPECT_TRUE(s->up);
        }
    }
    EXPECT_TRUE(said);
    bed.poll_after(seconds(10));
    EXPECT_EQ(bed.figure("mad_sweeps_total"), 2.0);
}

TEST(MadSourceTraps, TrapsAreOnAtSubnetScopeAndRefusedAtLocalScope) {
    auto options = [](std::map<std::string, std::string> extra) {
        sources::SourceSettings s;
        s.extra = std::move(extra);
        return parse_mad_options(::rdmadiag::test::resolved(s, "mad", mad_options()));
    };
    EXPECT_TRUE(options({{"mad.scope", "subnet"}})->traps);
    EXPECT_FALSE(options({{"mad.scope", "subnet"}, {"mad.traps", "off"}})->traps);
    EXPECT_FALSE(options({})->traps);
    sources::SourceSettings local;
    local.extra = {{"mad.traps", "on"}};
    auto refused = sources::resolve_source_options("mad", mad_options(), local);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message,
              "mad source: mad.traps acts at subnet scope: it needs mad.scope=subnet");
    local.extra = {{"mad.scope", "subnet"}, {"mad.traps", "maybe"}};
    EXPECT_FALSE(sources::resolve_source_options("mad", mad_options(), local).ok());
}

}  // namespace
}  // namespace rdmadiag::mad
