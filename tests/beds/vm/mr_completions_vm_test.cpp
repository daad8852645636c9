// Provokes the MR completions that MR-health tracking is about, on a real rxe device inside the
// test VM, and checks the raw work completions:
//  - binding a type-2 memory window to an MR registered without IBV_ACCESS_MW_BIND completes
//    with IBV_WC_MW_BIND_ERR;
//  - a LOCAL_INV posted after the QP was moved to ERR completes with IBV_WC_WR_FLUSH_ERR.
// It also checks that RDMA netlink (rdma resource show mr) lists the MR with this pid while it is
// registered and not after ibv_dereg_mr.

#include <unistd.h>

#include <array>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "tests/beds/vm/rxe_verbs.hpp"

namespace {

using rdmadiag::vm::RxeQpPair;

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

using MrCompletionsOnRxe = RxeQpPair;

TEST_F(MrCompletionsOnRxe, BindingAWindowToAnMrWithoutMwBindFailsWithMwBindErr) {
    mr.reset(ibv_reg_mr(pd.get(), buffer.data(), 4096,
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ));
    ASSERT_TRUE(mr) << "ibv_reg_mr failed";
    mw.reset(ibv_alloc_mw(pd.get(), IBV_MW_TYPE_2));
    ASSERT_TRUE(mw) << "ibv_alloc_mw(TYPE_2) failed";
    EXPECT_TRUE(netlink_lists_mr(mr->lkey)) << shell_output("rdma resource show mr -d");

    ASSERT_EQ(post_bind(a.get(), mw.get(), mr.get(), 0xb1d), 0);

    const ibv_wc wc = completion_of(0xb1d);
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

    ASSERT_TRUE(to_error(b.get()));
    ASSERT_EQ(post_local_inv(b.get(), mr->rkey, 0x11), 0);

    const ibv_wc wc = completion_of(0x11);
    EXPECT_EQ(wc.wr_id, 0x11u);
    EXPECT_EQ(wc.status, IBV_WC_WR_FLUSH_ERR) << ibv_wc_status_str(wc.status);
    std::printf("local_inv: wr_id=0x%llx status=%s mr rkey=0x%x\n",
                static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status), mr->rkey);
}

}  // namespace
