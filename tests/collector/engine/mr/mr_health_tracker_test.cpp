#include "collector/engine/mr/mr_health_tracker.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "tests/collector/engine/mr/mr_test_events.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine::mr {
namespace {

using test::at;
using test::mr_event;
using test::mr_lifecycle;
using test::mr_listing;
using test::obs;

class MrHealthTrackerTest : public ::testing::Test {
protected:
    void SetUp() override { make(MrHealthSettings{}); }
    void make(MrHealthSettings s) {
        engine = std::make_unique<Engine>();
        auto m = std::make_unique<MrHealthTracker>(s);
        tracker = m.get();
        engine->add_module(std::move(m));
    }
    void feed(double t, ObservationBody body, std::string source = "test") {
        engine->consume(obs(t, std::move(body), std::move(source)));
    }
    MrState state(uint64_t mr, const char* device = "rxe0") const {
        const MrRecord* r = tracker->find(device, mr);
        EXPECT_NE(r, nullptr) << "mr " << mr << " not tracked";
        return r ? r->state : MrState::deregistered;
    }
    const Finding* finding(const char* rule, uint64_t mr, const char* device = "rxe0") const {
        FindingSubject s;
        s.device = device;
        s.mr = mr;
        return engine->findings().find(rule, s);
    }
    const MrDeviceHealth& dev(const char* device = "rxe0") {
        snap = engine->snapshot();
        for (const auto& d : snap->mrs.devices) {
            if (d.device == device) return d;
        }
        ADD_FAILURE() << "no MR stats for " << device;
        static MrDeviceHealth none;
        return none;
    }
    void device_transport(const char* device, const char* node_type) {
        DeviceInfo info;
        info.device = device;
        info.node_type = node_type;
        info.transport = node_type == std::string("RNIC") ? Transport::iwarp : Transport::ib;
        feed(0, info);
    }

    std::unique_ptr<Engine> engine;
    MrHealthTracker* tracker = nullptr;
    SnapshotPtr snap;
};

TEST_F(MrHealthTrackerTest, AllocThenFastregThenLocalInvCyclesValidInvalid) {
    feed(1, mr_lifecycle(7, MrOp::alloc));
    EXPECT_EQ(state(7), MrState::invalid);
    feed(2, mr_event(7, MrOp::fastreg));
    EXPECT_EQ(state(7), MrState::valid);
    feed(3, mr_event(7, MrOp::local_inv));
    EXPECT_EQ(state(7), MrState::invalid);
    EXPECT_EQ(tracker->find("rxe0", 7)->state_since, at(3));
    feed(4, mr_event(7, MrOp::send_with_inv));  // already invalid: a duplicate
    EXPECT_EQ(dev().duplicate_events, 1u);
    feed(5, mr_event(7, MrOp::fastreg));
    EXPECT_EQ(state(7), MrState::valid);
    EXPECT_TRUE(engine->findings().active().empty());
}

TEST_F(MrHealthTrackerTest, UserRegistrationStartsValid) {
    feed(1, mr_lifecycle(9, MrOp::reg));
    EXPECT_EQ(state(9), MrState::valid);
}

TEST_F(MrHealthTrackerTest, FlushedLocalInvMakesUnknownAndWarnsAfterThreshold) {
    MrHealthSettings s;
    s.unknown_threshold = std::chrono::seconds(10);
    make(s);
    feed(1, mr_lifecycle(3, MrOp::alloc));
    feed(2, mr_event(3, MrOp::fastreg));
    feed(3, mr_event(3, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(3), MrState::unknown);
    EXPECT_EQ(finding(kRuleMrUnknown, 3), nullptr);
    engine->advance(at(12.9));
    EXPECT_EQ(finding(kRuleMrUnknown, 3), nullptr);
    engine->advance(at(13));
    const Finding* f = finding(kRuleMrUnknown, 3);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_EQ(f->since, at(3));
    EXPECT_NE(f->evidence.find("LOCAL_INV completed with WR_FLUSH_ERR"), std::string::npos);
    EXPECT_EQ(dev().entered_unknown, 1u);
}

TEST_F(MrHealthTrackerTest, FlushedFastregMakesUnknown) {
    feed(1, mr_lifecycle(3, MrOp::alloc));
    feed(2, mr_event(3, MrOp::fastreg, WcStatus::wr_flush_err));
    EXPECT_EQ(state(3), MrState::unknown);
}

TEST_F(MrHealthTrackerTest, OtherErrorOnInvalidationAlsoLeavesStateUnknown) {
    feed(1, mr_lifecycle(3, MrOp::alloc));
    feed(2, mr_event(3, MrOp::fastreg));
    feed(3, mr_event(3, MrOp::local_inv, WcStatus::loc_prot_err));
    EXPECT_EQ(state(3), MrState::unknown);
}

TEST_F(MrHealthTrackerTest, MwBindErrMakesStuckFromAnyLiveState) {
    for (MrOp op : {MrOp::fastreg, MrOp::local_inv, MrOp::bind_mw, MrOp::send_with_inv}) {
        make({});
        feed(1, mr_lifecycle(1, MrOp::alloc));
        feed(2, mr_event(1, op, WcStatus::mw_bind_err));
        EXPECT_EQ(state(1), MrState::stuck) << to_string(op);
        const Finding* f = finding(kRuleMrNeedsDereg, 1);
        ASSERT_NE(f, nullptr) << to_string(op);
        EXPECT_EQ(f->severity, Severity::critical);
        EXPECT_EQ(dev().bind_errors, 1u);
    }
}

TEST_F(MrHealthTrackerTest, StuckIsStickyUntilDereg) {
    feed(1, mr_lifecycle(1, MrOp::alloc));
    feed(2, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(3, mr_event(1, MrOp::fastreg));
    feed(4, mr_event(1, MrOp::local_inv));
    feed(5, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(1), MrState::stuck);
    EXPECT_EQ(dev().ignored_while_stuck, 2u);
    feed(6, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err));
    EXPECT_EQ(dev().duplicate_events, 2u);  // the flush and the repeated bind error
    EXPECT_NE(finding(kRuleMrNeedsDereg, 1), nullptr);
}

TEST_F(MrHealthTrackerTest, UnknownToStuckReplacesTheWarningWithCritical) {
    MrHealthSettings s;
    s.unknown_threshold = std::chrono::seconds(1);
    make(s);
    feed(1, mr_lifecycle(4, MrOp::alloc));
    feed(2, mr_event(4, MrOp::local_inv, WcStatus::wr_flush_err));
    engine->advance(at(5));
    ASSERT_NE(finding(kRuleMrUnknown, 4), nullptr);
    feed(6, mr_event(4, MrOp::fastreg, WcStatus::mw_bind_err));
    EXPECT_EQ(finding(kRuleMrUnknown, 4), nullptr);
    EXPECT_NE(finding(kRuleMrNeedsDereg, 4), nullptr);
    EXPECT_EQ(tracker->find("rxe0", 4)->flagged_since, at(2));
}

TEST_F(MrHealthTrackerTest, DeregOfStuckClearsFindingAndRecordsRecovery) {
    feed(1, mr_lifecycle(5, MrOp::alloc));
    feed(2, mr_event(5, MrOp::fastreg, WcStatus::mw_bind_err));
    ASSERT_NE(finding(kRuleMrNeedsDereg, 5), nullptr);
    feed(9.5, mr_lifecycle(5, MrOp::dereg));
    EXPECT_EQ(state(5), MrState::deregistered);
    EXPECT_EQ(finding(kRuleMrNeedsDereg, 5), nullptr);
    ASSERT_FALSE(engine->findings().history().empty());
    EXPECT_EQ(engine->findings().history().front().rule, kRuleMrNeedsDereg);
    snap = engine->snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    const MrRecovery& r = snap->mrs.recoveries.front();
    EXPECT_EQ(r.from, MrState::stuck);
    EXPECT_EQ(r.kind, MrRecoveryKind::dereg);
    EXPECT_EQ(r.recovered - r.flagged_since, std::chrono::milliseconds(7500));
    EXPECT_EQ(dev().recoveries, 1u);
    EXPECT_EQ(dev().recovery_time_total, std::chrono::milliseconds(7500));
}

TEST_F(MrHealthTrackerTest, DeregOfHealthyMrIsNoRecovery) {
    feed(1, mr_lifecycle(5, MrOp::reg));
    feed(2, mr_lifecycle(5, MrOp::dereg));
    EXPECT_EQ(state(5), MrState::deregistered);
    EXPECT_TRUE(engine->snapshot()->mrs.recoveries.empty());
}

TEST_F(MrHealthTrackerTest, FailedDeregKeepsTheMrAndItsFinding) {
    feed(1, mr_lifecycle(5, MrOp::alloc));
    feed(2, mr_event(5, MrOp::local_inv, WcStatus::mw_bind_err));
    feed(3, mr_lifecycle(5, MrOp::dereg, -16));
    EXPECT_EQ(state(5), MrState::stuck);
    EXPECT_NE(finding(kRuleMrNeedsDereg, 5), nullptr);
    EXPECT_EQ(dev().failed_ops, 1u);
}

TEST_F(MrHealthTrackerTest, SuccessfulLocalInvBringsUnknownBackAndCountsUnknownTime) {
    feed(1, mr_lifecycle(6, MrOp::alloc));
    feed(2, mr_event(6, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(6, mr_event(6, MrOp::local_inv));
    EXPECT_EQ(state(6), MrState::invalid);
    EXPECT_EQ(dev().unknown_time_total, std::chrono::seconds(4));
    snap = engine->snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    EXPECT_EQ(snap->mrs.recoveries.front().kind, MrRecoveryKind::known_again);
}

TEST_F(MrHealthTrackerTest, DuplicateFlushKeepsTheFirstSince) {
    feed(1, mr_lifecycle(6, MrOp::alloc));
    feed(2, mr_event(6, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(3, mr_event(6, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(tracker->find("rxe0", 6)->state_since, at(2));
    EXPECT_EQ(dev().entered_unknown, 1u);
    EXPECT_EQ(dev().duplicate_events, 1u);
}

TEST_F(MrHealthTrackerTest, OutOfOrderFlushOlderThanALaterSuccessIsIgnored) {
    feed(1, mr_lifecycle(8, MrOp::alloc));
    feed(5, mr_event(8, MrOp::fastreg));
    // A second source reports a flush that happened before the registration completed.
    feed(4, mr_event(8, MrOp::local_inv, WcStatus::wr_flush_err), "probe");
    EXPECT_EQ(state(8), MrState::valid);
    EXPECT_EQ(dev().late_events, 1u);
}

TEST_F(MrHealthTrackerTest, OutOfOrderSuccessCannotUndoALaterFlush) {
    feed(1, mr_lifecycle(8, MrOp::alloc));
    feed(5, mr_event(8, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(4, mr_event(8, MrOp::fastreg), "probe");
    EXPECT_EQ(state(8), MrState::unknown);
    EXPECT_EQ(dev().late_events, 1u);
}

TEST_F(MrHealthTrackerTest, OutOfOrderBindErrorStillMakesStuckAtItsOwnTime) {
    feed(1, mr_lifecycle(8, MrOp::alloc));
    feed(5, mr_event(8, MrOp::fastreg));
    feed(4, mr_event(8, MrOp::bind_mw, WcStatus::mw_bind_err), "probe");
    EXPECT_EQ(state(8), MrState::stuck);
    EXPECT_EQ(tracker->find("rxe0", 8)->state_since, at(4));
}

TEST_F(MrHealthTrackerTest, CompletionAfterDeregIsLateAndNotApplied) {
    feed(1, mr_lifecycle(2, MrOp::alloc));
    feed(2, mr_lifecycle(2, MrOp::dereg));
    feed(3, mr_event(2, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(2), MrState::deregistered);
    EXPECT_EQ(dev().late_events, 1u);
    feed(4, mr_lifecycle(2, MrOp::dereg));
    EXPECT_EQ(dev().duplicate_events, 1u);
}

TEST_F(MrHealthTrackerTest, ReusedIdAfterDeregStartsAFreshMr) {
    feed(1, mr_lifecycle(2, MrOp::alloc));
    feed(2, mr_event(2, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(3, mr_lifecycle(2, MrOp::dereg));
    feed(4, mr_lifecycle(2, MrOp::alloc));
    EXPECT_EQ(state(2), MrState::invalid);
    EXPECT_EQ(tracker->find("rxe0", 2)->first_seen, at(4));
    EXPECT_EQ(tracker->find("rxe0", 2)->completions, 0u);
}

TEST_F(MrHealthTrackerTest, FirstSightingWithoutAllocTakesTheCompletionsState) {
    feed(1, mr_event(11, MrOp::fastreg));
    feed(1, mr_event(12, MrOp::local_inv));
    feed(1, mr_event(13, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(1, mr_event(14, MrOp::fastreg, WcStatus::mw_bind_err));
    EXPECT_EQ(state(11), MrState::valid);
    EXPECT_EQ(state(12), MrState::invalid);
    EXPECT_EQ(state(13), MrState::unknown);
    EXPECT_EQ(state(14), MrState::stuck);
}

TEST_F(MrHealthTrackerTest, DeregOfUntrackedMrIsIgnored) {
    feed(1, mr_lifecycle(99, MrOp::dereg));
    EXPECT_EQ(tracker->find("rxe0", 99), nullptr);
}

TEST_F(MrHealthTrackerTest, PostedWorkRequestsAreCountedWithoutChangingState) {
    feed(1, mr_lifecycle(1, MrOp::reg));
    MrEvent posted = mr_event(1, MrOp::local_inv);
    posted.posted = true;
    feed(2, posted);
    EXPECT_EQ(state(1), MrState::valid);
    EXPECT_EQ(dev().posted.at(MrOp::local_inv), 1u);
    EXPECT_TRUE(dev().completions.empty());
}

TEST_F(MrHealthTrackerTest, CompletionsAreCountedByOpThenStatus) {
    feed(1, mr_lifecycle(1, MrOp::alloc));
    feed(2, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(3, mr_event(1, MrOp::fastreg));
    feed(4, mr_event(1, MrOp::local_inv));
    feed(5, mr_event(1, MrOp::fastreg));
    const auto& c = dev().completions;
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c[0], (MrCompletionCount{MrOp::fastreg, WcStatus::success, 2}));
    EXPECT_EQ(c[1], (MrCompletionCount{MrOp::local_inv, WcStatus::success, 1}));
    EXPECT_EQ(c[2], (MrCompletionCount{MrOp::local_inv, WcStatus::wr_flush_err, 1}));
}

TEST_F(MrHealthTrackerTest, CountsByStateAreCurrent) {
    feed(1, mr_lifecycle(1, MrOp::alloc));
    feed(1, mr_lifecycle(2, MrOp::reg));
    feed(1, mr_event(3, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(1, mr_event(4, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(2, mr_lifecycle(2, MrOp::dereg));
    const auto& d = dev();
    EXPECT_EQ(d.by_state.at(MrState::invalid), 1u);
    EXPECT_EQ(d.by_state.at(MrState::unknown), 1u);
    EXPECT_EQ(d.by_state.at(MrState::stuck), 1u);
    EXPECT_EQ(d.by_state.at(MrState::deregistered), 1u);
    EXPECT_EQ(d.by_state.count(MrState::valid), 0u);
    EXPECT_EQ(snap->mrs.count(MrState::stuck), 1u);
}

TEST_F(MrHealthTrackerTest, AdviceDependsOnTransport) {
    device_transport("rxe0", "CA");
    device_transport("iw0", "RNIC");
    feed(1, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err, "rxe0"));
    feed(1, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err, "iw0"));
    const MrRecord* ib = tracker->find("rxe0", 1);
    const MrRecord* iw = tracker->find("iw0", 1);
    ASSERT_TRUE(ib && iw);
    EXPECT_EQ(ib->transport, Transport::ib);
    EXPECT_EQ(iw->transport, Transport::iwarp);
    EXPECT_NE(ib->advice.find("must deregister"), std::string::npos);
    EXPECT_NE(iw->advice.find("re-post LOCAL_INV"), std::string::npos);
}

TEST_F(MrHealthTrackerTest, AdviceFollowsATransportLearnedLater) {
    MrHealthSettings s;
    s.unknown_threshold = Duration::zero();
    make(s);
    feed(1, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err, "iw0"));
    ASSERT_NE(finding(kRuleMrUnknown, 1, "iw0"), nullptr);
    EXPECT_EQ(finding(kRuleMrUnknown, 1, "iw0")->advice.find("re-post LOCAL_INV to this MR"),
              std::string::npos);
    device_transport("iw0", "RNIC");
    engine->advance(at(2));
    EXPECT_NE(finding(kRuleMrUnknown, 1, "iw0")->advice.find("re-post LOCAL_INV to this MR"),
              std::string::npos);
}

TEST_F(MrHealthTrackerTest, FlaggedMrAbsentFromCompleteListingIsDeregistered) {
    feed(1, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(1, mr_event(2, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(2, mr_listing("rxe0", {2, 3}));
    EXPECT_EQ(state(1), MrState::deregistered);
    EXPECT_EQ(state(2), MrState::stuck);
    EXPECT_EQ(finding(kRuleMrNeedsDereg, 1), nullptr);
    snap = engine->snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    EXPECT_EQ(snap->mrs.recoveries.front().kind, MrRecoveryKind::absent_from_listing);
}

TEST_F(MrHealthTrackerTest, IncompleteListingProvesNothing) {
    feed(1, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(2, mr_listing("rxe0", {}, false));
    EXPECT_EQ(state(1), MrState::stuck);
}

TEST_F(MrHealthTrackerTest, ListingOfAnotherDeviceDoesNotTouchThisOne) {
    feed(1, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err));
    feed(2, mr_listing("mlx5_0", {}));
    EXPECT_EQ(state(1), MrState::stuck);
}

TEST_F(MrHealthTrackerTest, DevicelessTraceMrIsJudgedByTheHostWideListing) {
    feed(1, mr_event(1, MrOp::fastreg, WcStatus::mw_bind_err, ""));
    feed(2, mr_listing("rxe0", {}));
    EXPECT_EQ(state(1, ""), MrState::stuck);
    feed(2, mr_listing("", {1}));
    EXPECT_EQ(state(1, ""), MrState::stuck);
    feed(3, mr_listing("", {}));
    EXPECT_EQ(state(1, ""), MrState::deregistered);
}

TEST_F(MrHealthTrackerTest, KeyNamedMrIsMatchedByKeyOnly) {
    MrEvent ev = mr_event(0x1234, MrOp::fastreg, WcStatus::mw_bind_err);
    ev.key = 0x1234;
    feed(1, ev);
    feed(2, mr_listing("rxe0", {}));  // keys withheld: cannot tell
    EXPECT_EQ(state(0x1234), MrState::stuck);
    MrInventory inv = mr_listing("rxe0", {0x1234});
    inv.mrs[0].lkey = 0x99;  // the mrn happens to equal the key, but the key differs
    feed(3, inv);
    EXPECT_EQ(state(0x1234), MrState::deregistered);
}

TEST_F(MrHealthTrackerTest, DeregisteredAreDroppedAfterRetention) {
    MrHealthSettings s;
    s.retention = std::chrono::seconds(60);
    make(s);
    feed(1, mr_lifecycle(1, MrOp::reg));
    feed(2, mr_lifecycle(1, MrOp::dereg));
    engine->advance(at(61.9));
    EXPECT_NE(tracker->find("rxe0", 1), nullptr);
    engine->advance(at(62));
    EXPECT_EQ(tracker->find("rxe0", 1), nullptr);
}

TEST_F(MrHealthTrackerTest, DeregisteredAreBoundedInNumber) {
    MrHealthSettings s;
    s.max_deregistered = 3;
    make(s);
    for (uint64_t i = 0; i < 10; ++i) {
        feed(1.0 + static_cast<double>(i), mr_lifecycle(i, MrOp::reg));
        feed(1.5 + static_cast<double>(i), mr_lifecycle(i, MrOp::dereg));
    }
    EXPECT_EQ(tracker->tracked(), 3u);
    EXPECT_NE(tracker->find("rxe0", 9), nullptr);
    EXPECT_EQ(tracker->find("rxe0", 6), nullptr);
}

TEST_F(MrHealthTrackerTest, TableIsBoundedAndLiveMrsAreNeverEvicted) {
    MrHealthSettings s;
    s.max_records = 4;
    make(s);
    for (uint64_t i = 0; i < 4; ++i) feed(1, mr_lifecycle(i, MrOp::reg));
    feed(2, mr_lifecycle(0, MrOp::dereg));
    feed(3, mr_lifecycle(10, MrOp::reg));  // takes the deregistered one's place
    EXPECT_EQ(tracker->find("rxe0", 0), nullptr);
    EXPECT_NE(tracker->find("rxe0", 10), nullptr);
    feed(4, mr_lifecycle(11, MrOp::reg));  // no room: counted, not tracked
    EXPECT_EQ(tracker->find("rxe0", 11), nullptr);
    EXPECT_EQ(engine->snapshot()->mrs.dropped_records, 1u);
    EXPECT_EQ(tracker->tracked(), 4u);
}

TEST_F(MrHealthTrackerTest, XprtrdmaStoryEndToEnd) {
    // NFS/RDMA: the QP goes to error, the LOCAL_INV is flushed, the MR's state is unknown; the
    // next FASTREG on it fails with MW_BIND_ERR; the finding fires; the ULP deregisters; it clears.
    MrHealthSettings s;
    s.unknown_threshold = std::chrono::seconds(5);
    make(s);
    device_transport("mlx5_0", "CA");
    feed(10, mr_lifecycle(42, MrOp::alloc, 0, "mlx5_0"));
    feed(11, mr_event(42, MrOp::fastreg, WcStatus::success, "mlx5_0"));
    feed(12, mr_event(42, MrOp::local_inv, WcStatus::wr_flush_err, "mlx5_0"));
    EXPECT_EQ(state(42, "mlx5_0"), MrState::unknown);
    engine->advance(at(18));
    ASSERT_NE(finding(kRuleMrUnknown, 42, "mlx5_0"), nullptr);
    feed(20, mr_event(42, MrOp::fastreg, WcStatus::mw_bind_err, "mlx5_0"));
    const Finding* f = finding(kRuleMrNeedsDereg, 42, "mlx5_0");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::critical);
    EXPECT_NE(f->advice.find("must deregister"), std::string::npos);
    EXPECT_NE(f->evidence.find("xprtrdma"), std::string::npos);
    EXPECT_EQ(finding(kRuleMrUnknown, 42, "mlx5_0"), nullptr);
    feed(25, mr_lifecycle(42, MrOp::dereg, 0, "mlx5_0"));
    EXPECT_TRUE(engine->findings().active().empty());
    snap = engine->snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    EXPECT_EQ(snap->mrs.recoveries[0].recovered - snap->mrs.recoveries[0].flagged_since,
              std::chrono::seconds(13));
}

}  // namespace
}  // namespace rdmadiag::engine::mr
