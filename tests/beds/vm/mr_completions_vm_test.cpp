// Provokes the MR completions that MR-health tracking is about, on a real rxe device inside the
// test VM, and checks the raw work completions:
//  - binding a type-2 memory window to an MR registered without IBV_ACCESS_MW_BIND completes
//    with IBV_WC_MW_BIND_ERR;
//  - a LOCAL_INV posted after the QP was moved to ERR completes with IBV_WC_WR_FLUSH_ERR.
// It also checks that RDMA netlink (rdma resource show mr) lists the MR with this pid while it is
// registered and not after ibv_dereg_mr.

#include <infiniband/verbs.h>
#include <poll.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/beds/vm/vm_guest.hpp"

namespace {

using Steady = std::chrono::steady_clock;

template <class T, int (*Free)(T*)>
struct Freer {
    void operator()(T* p) const { Free(p); }
};
int close_ctx(ibv_context* c) {
    return ibv_close_device(c);
}
using Context = std::unique_ptr<ibv_context, Freer<ibv_context, close_ctx>>;
using Pd = std::unique_ptr<ibv_pd, Freer<ibv_pd, ibv_dealloc_pd>>;
using Cq = std::unique_ptr<ibv_cq, Freer<ibv_cq, ibv_destroy_cq>>;
using Qp = std::unique_ptr<ibv_qp, Freer<ibv_qp, ibv_destroy_qp>>;
using Mr = std::unique_ptr<ibv_mr, Freer<ibv_mr, ibv_dereg_mr>>;
using Mw = std::unique_ptr<ibv_mw, Freer<ibv_mw, ibv_dealloc_mw>>;

Context open_rxe0() {
    int n = 0;
    ibv_device** list = ibv_get_device_list(&n);
    Context ctx;
    for (int i = 0; list != nullptr && i < n; ++i) {
        if (std::string(ibv_get_device_name(list[i])) == "rxe0")
            ctx.reset(ibv_open_device(list[i]));
    }
    if (list != nullptr) ibv_free_device_list(list);
    return ctx;
}

std::string shell_output(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (p == nullptr) return out;
    std::array<char, 512> buf{};
    while (fgets(buf.data(), buf.size(), p) != nullptr) out += buf.data();
    pclose(p);
    return out;
}

// Whether `rdma resource show mr` lists an MR with this lkey for this process.
bool netlink_lists_mr(uint32_t lkey) {
    char lkey_text[32];
    std::snprintf(lkey_text, sizeof lkey_text, "lkey 0x%x ", lkey);
    const std::string pid_text = "pid " + std::to_string(getpid()) + " ";
    const std::string listing = shell_output("rdma resource show mr dev rxe0 -d 2>&1");
    size_t pos = 0;
    while (pos < listing.size()) {
        size_t end = listing.find('\n', pos);
        if (end == std::string::npos) end = listing.size();
        const std::string line = listing.substr(pos, end - pos) + " ";
        if (line.find(lkey_text) != std::string::npos && line.find(pid_text) != std::string::npos) {
            return true;
        }
        pos = end + 1;
    }
    return false;
}

class MrCompletionsOnRxe : public ::testing::Test {
protected:
    void SetUp() override {
        if (!rdmadiag::vm::in_rxe_vm()) GTEST_SKIP() << rdmadiag::vm::kNotInVm;
        ctx = open_rxe0();
        ASSERT_TRUE(ctx) << "cannot open rxe0";
        pd.reset(ibv_alloc_pd(ctx.get()));
        ASSERT_TRUE(pd);
        cq.reset(ibv_create_cq(ctx.get(), 16, nullptr, nullptr, 0));
        ASSERT_TRUE(cq);
        a = make_qp();
        b = make_qp();
        ASSERT_TRUE(a && b);
        ASSERT_EQ(ibv_query_gid(ctx.get(), 1, 0, &gid), 0);
        ASSERT_TRUE(connect(a.get(), b->qp_num));
        ASSERT_TRUE(connect(b.get(), a->qp_num));
    }

    void TearDown() override {
        // Windows go before QPs: rxe holds the QP until its MWs are freed, and ibv_destroy_qp
        // then waits for about 50 s.
        mw.reset();
        mr.reset();
        a.reset();
        b.reset();
        cq.reset();
        pd.reset();
        ctx.reset();
    }

    Qp make_qp() {
        ibv_qp_init_attr init{};
        init.send_cq = cq.get();
        init.recv_cq = cq.get();
        init.qp_type = IBV_QPT_RC;
        init.sq_sig_all = 1;
        init.cap.max_send_wr = 8;
        init.cap.max_recv_wr = 8;
        init.cap.max_send_sge = 1;
        init.cap.max_recv_sge = 1;
        return Qp(ibv_create_qp(pd.get(), &init));
    }

    bool connect(ibv_qp* qp, uint32_t remote_qpn) {
        ibv_qp_attr attr{};
        attr.qp_state = IBV_QPS_INIT;
        attr.pkey_index = 0;
        attr.port_num = 1;
        attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
        if (ibv_modify_qp(qp, &attr,
                          IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) !=
            0) {
            return false;
        }
        attr = {};
        attr.qp_state = IBV_QPS_RTR;
        attr.path_mtu = IBV_MTU_1024;
        attr.dest_qp_num = remote_qpn;
        attr.rq_psn = 0;
        attr.max_dest_rd_atomic = 1;
        attr.min_rnr_timer = 12;
        attr.ah_attr.is_global = 1;
        attr.ah_attr.grh.dgid = gid;
        attr.ah_attr.grh.sgid_index = 0;
        attr.ah_attr.grh.hop_limit = 1;
        attr.ah_attr.port_num = 1;
        if (ibv_modify_qp(qp, &attr,
                          IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                              IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) !=
            0) {
            return false;
        }
        attr = {};
        attr.qp_state = IBV_QPS_RTS;
        attr.timeout = 14;
        attr.retry_cnt = 7;
        attr.rnr_retry = 7;
        attr.sq_psn = 0;
        attr.max_rd_atomic = 1;
        return ibv_modify_qp(qp, &attr,
                             IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC) == 0;
    }

    // The next completion, or a WC with wr_id 0 and status GENERAL_ERR after 5 s.
    ibv_wc next_completion() {
        const auto deadline = Steady::now() + std::chrono::seconds(5);
        ibv_wc wc{};
        while (Steady::now() < deadline) {
            const int n = ibv_poll_cq(cq.get(), 1, &wc);
            if (n == 1) return wc;
            if (n < 0) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        wc = {};
        wc.status = IBV_WC_GENERAL_ERR;
        return wc;
    }

    Context ctx;
    Pd pd;
    Cq cq;
    Qp a, b;
    Mr mr;
    Mw mw;
    ibv_gid gid{};
    alignas(4096) std::array<char, 8192> buffer{};
};

TEST_F(MrCompletionsOnRxe, BindingAWindowToAnMrWithoutMwBindFailsWithMwBindErr) {
    mr.reset(ibv_reg_mr(pd.get(), buffer.data(), 4096,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ));
    ASSERT_TRUE(mr) << "ibv_reg_mr failed";
    mw.reset(ibv_alloc_mw(pd.get(), IBV_MW_TYPE_2));
    ASSERT_TRUE(mw) << "ibv_alloc_mw(TYPE_2) failed";
    EXPECT_TRUE(netlink_lists_mr(mr->lkey)) << shell_output("rdma resource show mr -d");

    ibv_send_wr wr{};
    ibv_send_wr* bad = nullptr;
    wr.wr_id = 0xb1d;
    wr.opcode = IBV_WR_BIND_MW;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.bind_mw.mw = mw.get();
    wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
    wr.bind_mw.bind_info.mr = mr.get();
    wr.bind_mw.bind_info.addr = reinterpret_cast<uint64_t>(buffer.data());
    wr.bind_mw.bind_info.length = 4096;
    wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
    ASSERT_EQ(ibv_post_send(a.get(), &wr, &bad), 0);

    const ibv_wc wc = next_completion();
    EXPECT_EQ(wc.wr_id, 0xb1du);
    EXPECT_EQ(wc.status, IBV_WC_MW_BIND_ERR) << ibv_wc_status_str(wc.status);
    std::printf("bind: wr_id=0x%llx status=%s opcode=%d mr lkey=0x%x\n",
                static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status),
                static_cast<int>(wc.opcode), mr->lkey);

    const uint32_t lkey = mr->lkey;
    mw.reset();
    mr.reset();
    EXPECT_FALSE(netlink_lists_mr(lkey)) << "MR still listed after ibv_dereg_mr";
}

TEST_F(MrCompletionsOnRxe, LocalInvalidateAfterTheQpWentToErrIsFlushed) {
    mr.reset(ibv_reg_mr(pd.get(), buffer.data(), 4096,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_MW_BIND));
    ASSERT_TRUE(mr);

    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    ASSERT_EQ(ibv_modify_qp(b.get(), &attr, IBV_QP_STATE), 0);

    ibv_send_wr wr{};
    ibv_send_wr* bad = nullptr;
    wr.wr_id = 0x11;
    wr.opcode = IBV_WR_LOCAL_INV;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.invalidate_rkey = mr->rkey;
    ASSERT_EQ(ibv_post_send(b.get(), &wr, &bad), 0);

    const ibv_wc wc = next_completion();
    EXPECT_EQ(wc.wr_id, 0x11u);
    EXPECT_EQ(wc.status, IBV_WC_WR_FLUSH_ERR) << ibv_wc_status_str(wc.status);
    std::printf("local_inv: wr_id=0x%llx status=%s mr rkey=0x%x\n",
                static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status), mr->rkey);
}

}  // namespace
