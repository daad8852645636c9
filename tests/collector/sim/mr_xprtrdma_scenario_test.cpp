// The shipped scenario mr-xprtrdma-stuck played end to end through the simulated fabric source
// and the default engine, on the scenario's own clock (the collector's runtime on a ManualClock,
// polled at chosen instants, no sleeps): a LOCAL_INV flushed on QP error leaves MR 17 unknown, the
// next FASTREG fails with MW_BIND_ERR, mr.needs_dereg fires, and the deregistration 30 s later
// clears it and records the recovery.

#include <gtest/gtest.h>

#include "collector/engine/mr/mr_health_tracker.hpp"
#include "tests/collector/sim/scenario_run.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using sim::testing::t0;

class XprtrdmaStuckMr : public testing::ScenarioRun {
protected:
    void SetUp() override { start("mr-xprtrdma-stuck"); }

    const MrRecord* mr(uint64_t id) {
        snap = engine->snapshot();
        for (const auto& r : snap->mrs.mrs) {
            if (r.device == "mlx5_0" && r.mr == id) return &r;
        }
        return nullptr;
    }

    const Finding* active(const char* rule) const {
        FindingSubject subject;
        subject.device = "mlx5_0";
        subject.mr = 17;
        return engine->findings().find(rule, subject);
    }

    SnapshotPtr snap;
};

TEST_F(XprtrdmaStuckMr, FlushThenBindErrorThenDeregRaisesAndClearsNeedsDereg) {
    // FRWR cycling: allocated, registered, invalidated, registered again.
    run_to(9900ms);
    ASSERT_NE(mr(17), nullptr);
    EXPECT_EQ(mr(17)->state, MrState::valid);
    EXPECT_EQ(mr(17)->owner, (MrOwner{std::nullopt, "xprtrdma"}));
    EXPECT_EQ(mr(17)->source, "sim");
    EXPECT_TRUE(engine->findings().active().empty());

    // 10 s: QP_FATAL; the LOCAL_INV in flight is flushed. The MR's state is unknown, but not
    // for long enough (30 s) to be reported.
    run_to(10s);
    EXPECT_EQ(mr(17)->state, MrState::unknown);
    EXPECT_EQ(mr(17)->state_since, t0() + 10s);
    EXPECT_EQ(mr(17)->last_op, MrOp::local_inv);
    EXPECT_EQ(mr(17)->last_status, WcStatus::wr_flush_err);
    run_to(14900ms);
    EXPECT_EQ(active(engine::mr::kRuleMrUnknown), nullptr);
    EXPECT_EQ(active(engine::mr::kRuleMrNeedsDereg), nullptr);

    // 15 s: the next FASTREG completes MW_BIND_ERR: stuck, mr.needs_dereg (critical, IB advice).
    run_to(15s);
    EXPECT_EQ(mr(17)->state, MrState::stuck);
    EXPECT_EQ(mr(17)->state_since, t0() + 15s);
    EXPECT_EQ(mr(17)->last_op, MrOp::fastreg);
    EXPECT_EQ(mr(17)->last_status, WcStatus::mw_bind_err);
    const Finding* f = active(engine::mr::kRuleMrNeedsDereg);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::critical);
    EXPECT_EQ(f->since, t0() + 15s);
    EXPECT_NE(f->advice.find("deregister"), std::string::npos) << f->advice;
    EXPECT_NE(f->advice.find("xprtrdma"), std::string::npos) << f->advice;
    EXPECT_EQ(active(engine::mr::kRuleMrUnknown), nullptr);

    // Stuck is sticky: past the unknown threshold nothing changes but the time in state.
    run_to(44900ms);
    EXPECT_EQ(mr(17)->state, MrState::stuck);
    EXPECT_NE(active(engine::mr::kRuleMrNeedsDereg), nullptr);
    EXPECT_EQ(active(engine::mr::kRuleMrUnknown), nullptr);

    // 45 s: xprtrdma deregisters MR 17 and allocates MR 18. The finding clears at that instant
    // and the recovery is recorded from the flush (10 s) to the deregistration (45 s).
    run_to(45s);
    EXPECT_EQ(mr(17)->state, MrState::deregistered);
    EXPECT_EQ(active(engine::mr::kRuleMrNeedsDereg), nullptr);
    bool cleared = false;
    for (const auto& h : engine->findings().history()) {
        if (h.rule == engine::mr::kRuleMrNeedsDereg && h.subject.mr == 17u) {
            ASSERT_TRUE(h.cleared);
            EXPECT_EQ(*h.cleared, t0() + 45s);
            cleared = true;
        }
    }
    EXPECT_TRUE(cleared) << "mr.needs_dereg is not in the finding history";
    ASSERT_FALSE(snap->mrs.recoveries.empty());
    const MrRecovery& r = snap->mrs.recoveries.front();
    EXPECT_EQ(r.device, "mlx5_0");
    EXPECT_EQ(r.mr, 17u);
    EXPECT_EQ(r.from, MrState::stuck);
    EXPECT_EQ(r.kind, MrRecoveryKind::dereg);
    EXPECT_EQ(r.flagged_since, t0() + 10s);
    EXPECT_EQ(r.recovered, t0() + 45s);
    ASSERT_NE(mr(18), nullptr);
    EXPECT_EQ(mr(18)->state, MrState::invalid);

    // To the end: MR 18 is registered, nothing is active.
    run_to(60s);
    EXPECT_EQ(mr(18)->state, MrState::valid);
    EXPECT_TRUE(engine->findings().active().empty());
    ASSERT_EQ(snap->mrs.devices.size(), 1u);
    EXPECT_EQ(snap->mrs.devices[0].entered_unknown, 1u);
    EXPECT_EQ(snap->mrs.devices[0].entered_stuck, 1u);
    EXPECT_EQ(snap->mrs.devices[0].recoveries, 1u);
    EXPECT_EQ(snap->mrs.devices[0].recovery_time_total, Duration(35s));
}

}  // namespace
}  // namespace rdmadiag::sim
