// A verbs program on a real rxe device, inside the test VM, reports its MR operations through
// librdmadiag_probe to a collector in the same process (the probe source on a unix socket in the
// guest, the netlink source, the default engine). What the engine concludes rests only on the
// completions the program really got from rxe:
//  - LOCAL_INV posted after the QP went to ERR completes WR_FLUSH_ERR: the MR is unknown;
//  - a BIND_MW posted on that same QP is flushed as well (rxe flushes every send WR of a QP in
//    ERR; user space has no FASTREG, and a flushed bind leaves the MR as it was);
//  - binding a type-2 window to the MR (registered without IBV_ACCESS_MW_BIND) on a healthy QP
//    completes MW_BIND_ERR: the MR is stuck and mr.needs_dereg is raised;
//  - ibv_dereg_mr, reported, clears it and records the recovery.
// RDMA netlink (RES_MR_GET, through the netlink source) lists the MR with its mrn, lkey and this
// pid while it is registered, and not after.

#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"
#include "collector/engine/mr/mr_health_tracker.hpp"
#include "collector/probe/probe_source.hpp"
#include "collector/sources/netlink/netlink_source.hpp"
#include "rdmadiag_probe.h"
#include "tests/beds/vm/rxe_verbs.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag {
namespace {

class EngineSink final : public sources::ObservationSink {
public:
    explicit EngineSink(engine::Engine& engine) : engine_(engine) {}
    void emit(Observation obs) override { engine_.consume(obs); }

private:
    engine::Engine& engine_;
};

class MrProbeOnRxe : public vm::RxeQpPair {
protected:
    void SetUp() override {
        RxeQpPair::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        settings.options.set("probe.socket", dir.file("probe.sock"), true);
        probe = std::make_unique<probe::ProbeSource>(settings);
        ASSERT_TRUE(probe->availability().available) << probe->availability().reason;
        netlink = std::make_unique<netlink::NetlinkSource>(settings);
        engine = engine::make_default_engine();
        ASSERT_EQ(rdmadiag_probe_init(probe->socket_path().c_str()), 0);
        dev = rdmadiag_probe_device("rxe0");
        ASSERT_GE(dev, 0);
    }

    void TearDown() override {
        rdmadiag_probe_shutdown();
        probe.reset();
        RxeQpPair::TearDown();
    }

    // Drives the probe source (accepting, reading, draining) until `done` holds; at most ~10 s.
    bool pump_until(const std::function<bool()>& done) {
        EngineSink sink(*engine);
        for (int i = 0; i < 500; ++i) {
            for (int fd : probe->event_fds()) {
                pollfd p{fd, POLLIN, 0};
                if (::poll(&p, 1, 20) > 0 && (p.revents & POLLIN))
                    probe->on_readable(fd, SystemClock().now(), sink);
            }
            const TimePoint now = SystemClock().now();
            probe->poll(now, sink);
            engine->advance(now);
            if (done()) return true;
        }
        return false;
    }

    // One netlink poll: its rxe0 listing (also handed to the engine).
    std::optional<MrInventory> netlink_listing() {
        sources::VectorSink out;
        const TimePoint now = SystemClock().now();
        netlink->poll(now, out);
        std::optional<MrInventory> rxe0;
        for (const auto& o : out.observations) {
            engine->consume(o);
            if (const auto* inv = std::get_if<MrInventory>(&o.body); inv && inv->device == "rxe0")
                rxe0 = *inv;
        }
        engine->advance(now);
        return rxe0;
    }

    const MrInventory::Entry* entry_of(const MrInventory& inv, uint32_t lkey) const {
        for (const auto& e : inv.mrs) {
            if (e.lkey == lkey && e.pid == static_cast<uint32_t>(getpid())) return &e;
        }
        return nullptr;
    }

    const MrRecord* record(uint32_t lkey) {
        const auto snap = engine->snapshot();
        for (const auto& r : snap->mrs.mrs) {
            if (r.device == "rxe0" && r.mr == lkey) {
                last_record = r;
                return &last_record;
            }
        }
        return nullptr;
    }

    bool in_state(uint32_t lkey, MrState state) {
        const MrRecord* r = record(lkey);
        return r != nullptr && r->state == state;
    }

    const Finding* needs_dereg(uint32_t lkey) const {
        FindingSubject subject;
        subject.device = "rxe0";
        subject.mr = lkey;
        return engine->findings().find(engine::mr::kRuleMrNeedsDereg, subject);
    }

    static void print(const char* what, const ibv_wc& wc) {
        std::printf("%s: wr_id=0x%llx status=%s (%d) vendor_err=0x%x\n", what,
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                    static_cast<int>(wc.status), wc.vendor_err);
    }

    test::TempDir dir{"vm-probe"};
    sources::SourceSettings settings;
    std::unique_ptr<probe::ProbeSource> probe;
    std::unique_ptr<netlink::NetlinkSource> netlink;
    std::unique_ptr<engine::Engine> engine;
    int dev = -1;
    MrRecord last_record;
};

TEST_F(MrProbeOnRxe, ReportedCompletionsRaiseNeedsDeregAndDeregistrationClearsIt) {
    mr.reset(ibv_reg_mr(pd.get(), buffer.data(), 4096,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ));
    ASSERT_TRUE(mr) << "ibv_reg_mr failed";
    const uint32_t lkey = mr->lkey;
    rdmadiag_probe_mr_reg(dev, lkey, mr->rkey, 0);
    ASSERT_TRUE(pump_until([&] { return in_state(lkey, MrState::valid); }))
        << "the registration never reached the engine";
    EXPECT_EQ(record(lkey)->owner.pid, static_cast<uint32_t>(getpid()));
    EXPECT_EQ(record(lkey)->source, "probe");

    // Netlink lists it, with this pid.
    auto listing = netlink_listing();
    ASSERT_TRUE(listing) << "the netlink source sent no rxe0 listing";
    EXPECT_TRUE(listing->complete);
    const MrInventory::Entry* e = entry_of(*listing, lkey);
    ASSERT_NE(e, nullptr) << "netlink does not list lkey " << lkey << " for pid " << getpid();
    const uint64_t mrn = e->mr;
    std::printf("netlink: rxe0 mrn %llu lkey 0x%x rkey 0x%x pid %u comm %s\n",
                static_cast<unsigned long long>(mrn), lkey, e->rkey.value_or(0), e->pid.value_or(0),
                e->comm.c_str());

    // QP b goes to ERR; the LOCAL_INV posted on it is flushed: the MR is in an unknown state.
    ASSERT_TRUE(to_error(b.get()));
    ASSERT_EQ(post_local_inv(b.get(), mr->rkey, 0x11), 0);
    rdmadiag_probe_post(dev, RDMADIAG_OP_LOCAL_INV, lkey);
    const ibv_wc inv = completion_of(0x11);
    print("local_inv on the QP in ERR", inv);
    EXPECT_EQ(inv.status, IBV_WC_WR_FLUSH_ERR);
    rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, inv.status, lkey);
    ASSERT_TRUE(pump_until([&] { return in_state(lkey, MrState::unknown); }))
        << "state: " << (record(lkey) ? to_string(record(lkey)->state) : "untracked");

    // The next MR operation on that QP: rxe flushes it too, so it says nothing about the MR.
    mw.reset(ibv_alloc_mw(pd.get(), IBV_MW_TYPE_2));
    ASSERT_TRUE(mw) << "ibv_alloc_mw(TYPE_2) failed";
    ASSERT_EQ(post_bind(b.get(), mw.get(), mr.get(), 0x12), 0);
    rdmadiag_probe_post(dev, RDMADIAG_OP_BIND_MW, lkey);
    const ibv_wc flushed_bind = completion_of(0x12);
    print("bind_mw on the QP in ERR", flushed_bind);
    EXPECT_EQ(flushed_bind.status, IBV_WC_WR_FLUSH_ERR);
    rdmadiag_probe_wc(dev, RDMADIAG_OP_BIND_MW, flushed_bind.status, lkey);

    // On the healthy QP the bind reaches the MR, which lacks MW_BIND access: MW_BIND_ERR.
    ASSERT_EQ(post_bind(a.get(), mw.get(), mr.get(), 0x13), 0);
    rdmadiag_probe_post(dev, RDMADIAG_OP_BIND_MW, lkey);
    const ibv_wc bind = completion_of(0x13);
    print("bind_mw on the healthy QP", bind);
    EXPECT_EQ(bind.status, IBV_WC_MW_BIND_ERR);
    rdmadiag_probe_wc(dev, RDMADIAG_OP_BIND_MW, bind.status, lkey);
    ASSERT_TRUE(pump_until([&] { return needs_dereg(lkey) != nullptr; }))
        << "state: " << (record(lkey) ? to_string(record(lkey)->state) : "untracked");
    EXPECT_EQ(record(lkey)->state, MrState::stuck);
    EXPECT_EQ(record(lkey)->last_op, MrOp::bind_mw);
    EXPECT_EQ(record(lkey)->last_status, WcStatus::mw_bind_err);
    std::printf("finding: %s %s: %s\n", needs_dereg(lkey)->rule.c_str(),
                needs_dereg(lkey)->subject.to_string().c_str(), needs_dereg(lkey)->advice.c_str());

    // Still registered: netlink still lists it, and the complete listing does not clear it.
    listing = netlink_listing();
    ASSERT_TRUE(listing);
    ASSERT_NE(entry_of(*listing, lkey), nullptr);
    EXPECT_NE(needs_dereg(lkey), nullptr);

    // The program deregisters and says so; the finding clears and the recovery is recorded.
    mw.reset();
    const int rc = ibv_dereg_mr(mr.release());
    EXPECT_EQ(rc, 0);
    rdmadiag_probe_mr_dereg(dev, lkey, rc);
    ASSERT_TRUE(pump_until([&] { return in_state(lkey, MrState::deregistered); }));
    EXPECT_EQ(needs_dereg(lkey), nullptr);
    const auto snap = engine->snapshot();
    bool recovered = false;
    for (const auto& r : snap->mrs.recoveries) {
        if (r.device == "rxe0" && r.mr == lkey && r.from == MrState::stuck &&
            r.kind == MrRecoveryKind::dereg)
            recovered = true;
    }
    EXPECT_TRUE(recovered) << "no recovery recorded for lkey " << lkey;
    EXPECT_EQ(rdmadiag_probe_dropped(), 0u);

    // Netlink no longer lists it.
    listing = netlink_listing();
    ASSERT_TRUE(listing);
    EXPECT_EQ(entry_of(*listing, lkey), nullptr);
    for (const auto& other : listing->mrs) EXPECT_NE(other.mr, mrn) << "mrn still listed";
}

}  // namespace
}  // namespace rdmadiag
