#pragma once
// Verbs plumbing shared by the MR tests that run inside the soft-RoCE VM: RAII handles, rxe0, and
// a fixture with two connected RC QPs (a, b) on one CQ, looped back over rxe0's GID 0.

#include <infiniband/verbs.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/beds/vm/vm_guest.hpp"

namespace rdmadiag::vm {

template <class T, int (*Free)(T*)>
struct Freer {
    void operator()(T* p) const { Free(p); }
};
inline int close_ctx(ibv_context* c) {
    return ibv_close_device(c);
}
// verbs.h defines ibv_dealloc_mw static inline: a named wrapper keeps Mw usable from a header.
inline int dealloc_mw(ibv_mw* w) {
    return ibv_dealloc_mw(w);
}
using Context = std::unique_ptr<ibv_context, Freer<ibv_context, close_ctx>>;
using Pd = std::unique_ptr<ibv_pd, Freer<ibv_pd, ibv_dealloc_pd>>;
using Cq = std::unique_ptr<ibv_cq, Freer<ibv_cq, ibv_destroy_cq>>;
using Qp = std::unique_ptr<ibv_qp, Freer<ibv_qp, ibv_destroy_qp>>;
using Mr = std::unique_ptr<ibv_mr, Freer<ibv_mr, ibv_dereg_mr>>;
using Mw = std::unique_ptr<ibv_mw, Freer<ibv_mw, dealloc_mw>>;

inline Context open_rxe0() {
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

class RxeQpPair : public ::testing::Test {
protected:
    void SetUp() override {
        if (!in_rxe_vm()) GTEST_SKIP() << kNotInVm;
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

    bool to_error(ibv_qp* qp) {
        ibv_qp_attr attr{};
        attr.qp_state = IBV_QPS_ERR;
        return ibv_modify_qp(qp, &attr, IBV_QP_STATE) == 0;
    }

    // A type-2 window bind of `len` bytes of `m` (the window is `w`), signalled, on `qp`.
    static int post_bind(ibv_qp* qp, ibv_mw* w, ibv_mr* m, uint64_t wr_id) {
        ibv_send_wr wr{};
        ibv_send_wr* bad = nullptr;
        wr.wr_id = wr_id;
        wr.opcode = IBV_WR_BIND_MW;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.bind_mw.mw = w;
        wr.bind_mw.rkey = ibv_inc_rkey(w->rkey);
        wr.bind_mw.bind_info.mr = m;
        wr.bind_mw.bind_info.addr = reinterpret_cast<uint64_t>(m->addr);
        wr.bind_mw.bind_info.length = 4096;
        wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
        return ibv_post_send(qp, &wr, &bad);
    }

    static int post_local_inv(ibv_qp* qp, uint32_t rkey, uint64_t wr_id) {
        ibv_send_wr wr{};
        ibv_send_wr* bad = nullptr;
        wr.wr_id = wr_id;
        wr.opcode = IBV_WR_LOCAL_INV;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.invalidate_rkey = rkey;
        return ibv_post_send(qp, &wr, &bad);
    }

    // The completion of `wr_id` (others are skipped), or a WC with status GENERAL_ERR and wr_id 0
    // after 5 s.
    ibv_wc completion_of(uint64_t wr_id) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        ibv_wc wc{};
        while (std::chrono::steady_clock::now() < deadline) {
            const int n = ibv_poll_cq(cq.get(), 1, &wc);
            if (n < 0) break;
            if (n == 1 && wc.wr_id == wr_id) return wc;
            if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
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

}  // namespace rdmadiag::vm
