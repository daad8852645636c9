// Trap subscriptions and Reports against the fake fabric's SA: what is subscribed, what a
// refusal or a silent SA leaves behind, and what each Report asks of the source. Also that a
// Report arriving during a batch is never taken for an answer.

#include "collector/sources/mad/trap_listener.hpp"

#include <gtest/gtest.h>

#include "collector/sources/mad/mad_requests.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"
#include "tests/collector/sources/mad/trap_notices.hpp"

namespace rdmadiag::mad {
namespace {

using std::chrono::seconds;

struct Bed {
    test::FakeFabric fabric = test::fat_tree({.leaves = 2, .spines = 1, .hosts_per_leaf = 2});
    MadEngine engine{fabric, MadEngineOptions{.retries = 0}, [this] { return fabric.now; }};
    TrapListener traps;
    Bed() {
        engine.on_unsolicited([this](const ReceivedMad& m) { traps.take(m, fabric); });
    }
};

TEST(MadEngine, AReportDuringABatchIsHandedOverAndNeverTakenForAnAnswer) {
    Bed bed;
    std::vector<ReceivedMad> unsolicited;
    bed.engine.on_unsolicited([&](const ReceivedMad& m) { unsolicited.push_back(m); });
    // TID 1 is the batch's first: a Report matched by TID alone would answer request 0.
    bed.fabric.forward_trap(test::link_state_notice(1), 1);
    const uint16_t lid = bed.fabric.nodes[0].ports[0].lid;
    auto out = bed.engine.run({smp_request(Route{false, {}, lid}, attr::node_info, 0),
                               smp_request(Route{false, {}, lid}, attr::node_description, 0)});
    ASSERT_EQ(out.size(), 2u);
    ASSERT_TRUE(out[0].response.ok());
    auto h = check_response(*out[0].response);
    ASSERT_TRUE(h.ok()) << h.error().message;
    EXPECT_EQ(h->attr_id, attr::node_info);
    ASSERT_EQ(unsolicited.size(), 1u);
    EXPECT_EQ(unsolicited[0].agent, Agent::sa);
    EXPECT_EQ(unsolicited[0].from.dlid, bed.fabric.sm_lid);
    EXPECT_EQ(bed.engine.stats().unsolicited, 1u);
    EXPECT_EQ(bed.engine.stats().stray, 0u);
}

TEST(MadEngine, BetweenBatchesWaitingReportsAreTakenWithoutWaiting) {
    Bed bed;
    bed.fabric.forward_trap(test::link_state_notice(1), 5);
    bed.fabric.forward_trap(test::local_changes_notice(7, 0, 0), 6);
    const auto before = bed.fabric.now;
    ASSERT_TRUE(bed.engine.receive_waiting().ok());
    EXPECT_EQ(bed.fabric.now, before);  // a zero-timeout receive found the queue empty
    EXPECT_EQ(bed.engine.stats().unsolicited, 2u);
    EXPECT_EQ(bed.fabric.report_responses.size(), 2u);
}

TEST(TrapListener, SubscribesToTheFourTrapsForEveryPort) {
    Bed bed;
    const TimePoint now{seconds(100)};
    EXPECT_TRUE(bed.traps.should_subscribe(bed.fabric.sm_lid, now, false));
    ASSERT_TRUE(bed.traps.subscribe(bed.engine, bed.fabric.sm_lid, 0, now).ok());
    EXPECT_TRUE(bed.traps.subscribed());
    ASSERT_EQ(bed.fabric.subscriptions.size(), 4u);
    std::vector<uint16_t> numbers;
    for (const InformInfo& info : bed.fabric.subscriptions) {
        EXPECT_TRUE(info.subscribe);
        EXPECT_EQ(info.lid_range_begin, 0xffff);
        numbers.push_back(info.trap_number);
    }
    EXPECT_EQ(numbers, (std::vector<uint16_t>{64, 65, 128, 144}));
    // Renewed with discoveries and when the SM moves; not on every pass.
    EXPECT_FALSE(bed.traps.should_subscribe(bed.fabric.sm_lid, now + seconds(5), false));
    EXPECT_TRUE(bed.traps.should_subscribe(bed.fabric.sm_lid, now + seconds(5), true));
    EXPECT_TRUE(bed.traps.should_subscribe(bed.fabric.sm_lid + 1, now + seconds(5), false));

    bed.traps.unsubscribe(bed.engine, 0);
    ASSERT_EQ(bed.fabric.subscriptions.size(), 8u);
    EXPECT_FALSE(bed.fabric.subscriptions.back().subscribe);
    EXPECT_FALSE(bed.traps.subscribed());
}

TEST(TrapListener, ARefusalIsReportedAndTriedAgainAfterAWhile) {
    Bed bed;
    bed.fabric.sa_takes_subscriptions = false;
    const TimePoint now{seconds(100)};
    auto ok = bed.traps.subscribe(bed.engine, bed.fabric.sm_lid, 0, now);
    ASSERT_FALSE(ok.ok());
    EXPECT_NE(ok.error().message.find("Subscribe=0"), std::string::npos) << ok.error().message;
    EXPECT_FALSE(bed.traps.subscribed());
    EXPECT_EQ(bed.traps.figures().front().value, 0.0);
    EXPECT_FALSE(bed.traps.should_subscribe(bed.fabric.sm_lid, now + seconds(30), true));
    EXPECT_TRUE(
        bed.traps.should_subscribe(bed.fabric.sm_lid, now + TrapListener::kRetryAfter, false));
}

TEST(TrapListener, ASilentSaIsReportedAsNotAnswering) {
    Bed bed;
    bed.fabric.sa = false;
    auto ok = bed.traps.subscribe(bed.engine, bed.fabric.sm_lid, 0, TimePoint{});
    ASSERT_FALSE(ok.ok());
    EXPECT_NE(ok.error().message.find("no answer"), std::string::npos) << ok.error().message;
    EXPECT_FALSE(bed.traps.subscribed());
}

TEST(TrapListener, EachReportIsAnsweredAndSaysWhatToDo) {
    Bed bed;
    bed.fabric.forward_trap(test::link_state_notice(3), 40);
    bed.fabric.forward_trap(test::local_changes_notice(9, 0x02510868, 0), 41);
    ASSERT_TRUE(bed.engine.receive_waiting().ok());
    ASSERT_EQ(bed.fabric.report_responses.size(), 2u);
    EXPECT_EQ(bed.fabric.report_responses[0][3], 0x86);
    EXPECT_EQ(get64(bed.fabric.report_responses[0], 8), 40u);
    EXPECT_EQ(get64(bed.fabric.report_responses[1], 8), 41u);
    TrapActions actions = bed.traps.take_actions();
    EXPECT_TRUE(actions.rediscover);
    EXPECT_EQ(actions.refresh_lids, (std::set<uint16_t>{9}));
    EXPECT_TRUE(bed.traps.take_actions().empty());
}

TEST(TrapListener, AResentReportIsAnsweredAgainButCountedOnce) {
    Bed bed;
    bed.fabric.forward_trap(test::link_state_notice(3), 40);
    ASSERT_TRUE(bed.engine.receive_waiting().ok());
    (void)bed.traps.take_actions();
    bed.fabric.forward_trap(test::link_state_notice(3), 40);
    ASSERT_TRUE(bed.engine.receive_waiting().ok());
    EXPECT_EQ(bed.fabric.report_responses.size(), 2u);
    EXPECT_TRUE(bed.traps.take_actions().empty());
    for (const auto& f : bed.traps.figures()) {
        if (f.name == "mad_traps_received_total" || f.name == "mad_traps_link_state_change_total") {
            EXPECT_EQ(f.value, 1.0) << f.name;
        }
    }
}

TEST(TrapListener, AMalformedReportIsSkippedAndCounted) {
    Bed bed;
    auto bad = test::link_state_notice(3);
    bed.fabric.forward_trap(bad, 40);
    ReceivedMad cut;
    cut.agent = Agent::sa;
    cut.mad = {0x01, 0x03, 0x02, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a, 0, 0x02};
    bed.traps.take(cut, bed.fabric);
    EXPECT_TRUE(bed.fabric.report_responses.empty());
    EXPECT_TRUE(bed.traps.take_actions().empty());
    EXPECT_NE(bed.traps.last_error().find("SA Report skipped"), std::string::npos);
    bool counted = false;
    for (const auto& f : bed.traps.figures())
        if (f.name == "mad_traps_malformed_total") counted = f.value == 1.0;
    EXPECT_TRUE(counted);
}

}  // namespace
}  // namespace rdmadiag::mad
