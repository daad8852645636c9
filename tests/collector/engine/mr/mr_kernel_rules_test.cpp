// The MR rules by what the kernel does with flushed xprtrdma MRs (collector/model/mr_kernel.hpp).
#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "collector/engine/mr/mr_health_tracker.hpp"
#include "tests/collector/engine/mr/mr_test_events.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine::mr {
namespace {

using test::mr_event;
using test::mr_lifecycle;
using test::mr_listing;
using test::obs;

MrKernelBehaviour kernel(FlushedMrHandling h) {
    MrKernelBehaviour k;
    k.flushed_mrs = h;
    k.kernel = h == FlushedMrHandling::destroyed ? "6.1.0-18-amd64" : "5.4.0";
    k.basis = "test";
    return k;
}

class MrKernelRulesTest : public ::testing::Test {
protected:
    void SetUp() override {
        MrHealthSettings s;
        s.unknown_threshold = std::chrono::seconds(30);
        s.teardown_timeout = std::chrono::seconds(60);
        auto m = std::make_unique<MrHealthTracker>(s);
        tracker = m.get();
        engine.add_module(std::move(m));
    }
    void feed(double t, ObservationBody body) { engine.consume(obs(t, std::move(body))); }
    void tick(double t) { engine.advance(test::at(t)); }
    const Finding* finding(const char* rule, uint64_t mr) const {
        FindingSubject s;
        s.device = "rxe0";
        s.mr = mr;
        return engine.findings().find(rule, s);
    }
    MrState state(uint64_t mr) const { return tracker->find("rxe0", mr)->state; }

    Engine engine;
    MrHealthTracker* tracker = nullptr;
};

TEST_F(MrKernelRulesTest, OnADestroyingKernelAFlushedXprtrdmaMrAwaitsTeardown) {
    feed(0, kernel(FlushedMrHandling::destroyed));
    feed(1, mr_lifecycle(7, MrOp::alloc));
    feed(2, mr_event(7, MrOp::fastreg));
    feed(3, mr_event(7, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(7), MrState::awaiting_teardown);
    tick(50);  // past the unknown threshold, within the teardown timeout
    EXPECT_EQ(finding(kRuleMrUnknown, 7), nullptr);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 7), nullptr);
    // The connection's teardown destroys it: no finding ever, and it counts as a recovery.
    feed(55, mr_lifecycle(7, MrOp::dereg));
    EXPECT_EQ(state(7), MrState::deregistered);
    tick(200);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 7), nullptr);
    auto snap = engine.snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    EXPECT_EQ(snap->mrs.recoveries[0].from, MrState::awaiting_teardown);
    EXPECT_EQ(snap->mrs.kernel.flushed_mrs, FlushedMrHandling::destroyed);
}

TEST_F(MrKernelRulesTest, AnMrThatOutlivesItsTeardownIsAFindingThatClearsWhenItGoes) {
    feed(0, kernel(FlushedMrHandling::destroyed));
    feed(1, mr_event(9, MrOp::fastreg, WcStatus::wr_flush_err));
    EXPECT_EQ(state(9), MrState::awaiting_teardown);
    tick(60);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 9), nullptr);
    tick(62);
    const Finding* f = finding(kRuleMrTeardownOverdue, 9);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_NE(f->evidence.find("still not destroyed"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("test"), std::string::npos) << "names the basis: " << f->evidence;
    EXPECT_EQ(finding(kRuleMrUnknown, 9), nullptr);
    // Gone from a complete listing: destroyed after all.
    feed(70, mr_listing("rxe0", {1, 2}));
    EXPECT_EQ(state(9), MrState::deregistered);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 9), nullptr);
}

TEST_F(MrKernelRulesTest, OnARecoveringKernelTheUnknownRuleStands) {
    feed(0, kernel(FlushedMrHandling::recovered));
    feed(1, mr_event(7, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(7), MrState::unknown);
    tick(32);
    EXPECT_NE(finding(kRuleMrUnknown, 7), nullptr);
}

TEST_F(MrKernelRulesTest, NotKnowingTheKernelKeepsTheUnknownRule) {
    feed(1, mr_event(7, MrOp::local_inv, WcStatus::wr_flush_err));
    EXPECT_EQ(state(7), MrState::unknown);
    tick(32);
    EXPECT_NE(finding(kRuleMrUnknown, 7), nullptr);
}

TEST_F(MrKernelRulesTest, OtherFrwrUsersKeepTheOldHazardOnAnyKernel) {
    feed(0, kernel(FlushedMrHandling::destroyed));
    MrEvent app = mr_event(11, MrOp::local_inv, WcStatus::wr_flush_err);
    app.owner = MrOwner{4242, "trainer"};
    feed(1, app);
    EXPECT_EQ(state(11), MrState::unknown);
    MrEvent iser = mr_event(12, MrOp::fastreg, WcStatus::wr_flush_err);
    iser.owner.name = "ib_iser";
    feed(1, iser);
    EXPECT_EQ(state(12), MrState::unknown);
}

TEST_F(MrKernelRulesTest, MwBindErrStillMeansStuckOnADestroyingKernel) {
    feed(0, kernel(FlushedMrHandling::destroyed));
    feed(1, mr_event(7, MrOp::local_inv, WcStatus::wr_flush_err));
    feed(2, mr_event(7, MrOp::fastreg, WcStatus::mw_bind_err));
    EXPECT_EQ(state(7), MrState::stuck);
    EXPECT_NE(finding(kRuleMrNeedsDereg, 7), nullptr);
    tick(100);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 7), nullptr);
}

TEST_F(MrKernelRulesTest, LearningTheKernelLateJudgesFlushedMrsAgain) {
    // A saved trace says what its kernel was only after its events.
    feed(1, mr_event(7, MrOp::local_inv, WcStatus::wr_flush_err));
    tick(40);
    ASSERT_NE(finding(kRuleMrUnknown, 7), nullptr);
    feed(41, kernel(FlushedMrHandling::destroyed));
    EXPECT_EQ(state(7), MrState::awaiting_teardown);
    EXPECT_EQ(finding(kRuleMrUnknown, 7), nullptr);
    EXPECT_EQ(finding(kRuleMrTeardownOverdue, 7), nullptr);
    tick(62);  // 61 s after the flush
    EXPECT_NE(finding(kRuleMrTeardownOverdue, 7), nullptr);
    // A later source that does not know does not undo what was learned.
    MrKernelBehaviour none;
    feed(63, none);
    EXPECT_EQ(engine.snapshot()->mrs.kernel.flushed_mrs, FlushedMrHandling::destroyed);
}

}  // namespace
}  // namespace rdmadiag::engine::mr
