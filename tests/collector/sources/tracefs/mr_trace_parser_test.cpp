#include "collector/sources/tracefs/mr_trace_parser.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <vector>
#include "tests/support/test_paths.hpp"

namespace rdmadiag::tracefs {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<TraceMrEvent> parse_all(const std::vector<std::string>& lines, size_t* errors) {
    std::vector<TraceMrEvent> out;
    for (const auto& l : lines) {
        auto r = parse_mr_trace_line(l, "mlx5_0");
        if (!r) {
            ++*errors;
            continue;
        }
        if (*r) out.push_back(**r);
    }
    return out;
}

MrEvent body(std::string_view event, std::string_view text) {
    auto r = parse_mr_trace_body(event, text, "");
    EXPECT_TRUE(r.ok()) << event << ": " << text << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? r.value() : MrEvent{};
}

TEST(MrTraceParser, CurrentKernelLog) {
    size_t errors = 0;
    auto evs = parse_all(
        lines_of(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-current.trace"), &errors);
    EXPECT_EQ(errors, 0u);
    ASSERT_EQ(evs.size(), 10u);  // three unrelated events skipped
    EXPECT_EQ(evs[0].event, "mr_alloc");
    EXPECT_EQ(evs[0].mr.op, MrOp::alloc);
    EXPECT_EQ(evs[0].mr.owner.name, "kernel");
    EXPECT_EQ(evs[1].mr.op, MrOp::alloc);
    EXPECT_EQ(evs[1].mr.owner.name, "xprtrdma");
    EXPECT_EQ(evs[2].mr.op, MrOp::fastreg);
    EXPECT_EQ(evs[3].mr.op, MrOp::local_inv);
    EXPECT_EQ(evs[5].mr.status, WcStatus::wr_flush_err);
    EXPECT_EQ(evs[5].timestamp, std::chrono::seconds(101));
    EXPECT_EQ(evs[6].mr.status, WcStatus::mw_bind_err);
    EXPECT_EQ(evs[7].mr.mr, 18u);
    EXPECT_EQ(evs[8].mr.op, MrOp::dereg);
    EXPECT_EQ(evs[8].mr.key, 0x1204u);
    EXPECT_EQ(evs[8].mr.rc, 0);
    EXPECT_EQ(evs[9].event, "mr_dereg");
    for (const auto& e : evs) EXPECT_EQ(e.mr.device, "mlx5_0");
}

TEST(MrTraceParser, Kernel510Log) {
    size_t errors = 0;
    auto evs = parse_all(
        lines_of(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-5.10.trace"), &errors);
    EXPECT_EQ(errors, 0u);
    ASSERT_EQ(evs.size(), 7u);
    EXPECT_EQ(evs[2].mr.op, MrOp::fastreg);
    EXPECT_EQ(evs[2].mr.mr, 5u);
    EXPECT_EQ(evs[3].mr.op, MrOp::local_inv);
    EXPECT_EQ(evs[3].mr.status, WcStatus::wr_flush_err);
    EXPECT_EQ(evs[4].event, "xprtrdma_frwr_done");
    EXPECT_EQ(evs[4].mr.status, WcStatus::mw_bind_err);
    EXPECT_EQ(evs[5].mr.key, 0x507u);
}

TEST(MrTraceParser, BothGenerationsMixed) {
    auto a = lines_of(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-current.trace");
    auto b = lines_of(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-5.10.trace");
    std::vector<std::string> mixed;
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        if (i < a.size()) mixed.push_back(a[i]);
        if (i < b.size()) mixed.push_back(b[i]);
    }
    size_t errors = 0;
    EXPECT_EQ(parse_all(mixed, &errors).size(), 17u);
    EXPECT_EQ(errors, 0u);
}

TEST(MrTraceParser, EachFormat) {
    MrEvent e = body("xprtrdma_wc_li_done", "cq.id=4 mr.id=9 status=REM_ACCESS_ERR (10/0x88)");
    EXPECT_EQ(e.mr, 9u);
    EXPECT_EQ(e.op, MrOp::local_inv);
    EXPECT_EQ(e.status, WcStatus::rem_access_err);
    e = body("xprtrdma_frwr_alloc", "mr.id=3: rc=-12");
    EXPECT_EQ(e.rc, -12);
    e = body("mr_integ_alloc", "pd.id=1 mr.id=8 max_num_data_sg=16 max_num_meta_sg=4 rc=0");
    EXPECT_EQ(e.op, MrOp::alloc);
    EXPECT_EQ(e.mr, 8u);
    e = body("mr_alloc", "pd.id=1 mr.id=0 type=MEM_REG max_num_sg=30 rc=-22");
    EXPECT_EQ(e.rc, -22);
    e = body("mr_reg", "mr.id=12");
    EXPECT_EQ(e.op, MrOp::reg);
    // A status the kernel has no name for prints as a number.
    e = body("xprtrdma_wc_fastreg", "cq.id=1 mr.id=2 status=0x15 (21/0x0)");
    EXPECT_EQ(e.status, WcStatus::general_err);
}

TEST(MrTraceParser, RejectsGarbledMrLines) {
    const std::pair<const char*, const char*> bad[] = {
        {"xprtrdma_wc_li", "cq.id=2 mr.id=17 status=WR_FLUSH_ERR (6/0x0)"},  // name vs code
        {"xprtrdma_wc_li", "cq.id=2 mr.id=-1 status=SUCCESS (0/0x0)"},
        {"xprtrdma_wc_li", "cq.id=2 mr.id=17 status=BOGUS (5/0x0)"},
        {"xprtrdma_wc_li", "cq.id=2 mr.id=17 status=SUCCESS (99/0x0)"},
        {"xprtrdma_wc_li", "cq.id=2 mr.id=17 status=SUCCESS (0/0x0) extra"},
        {"xprtrdma_wc_fastreg", "mr=00000000a1b2c3d4: SUCCESS (0/0x0)"},  // pre-5.10 pointer
        {"xprtrdma_frwr_dereg", "mr.id=1 nents=1 4096@0x1000:0x1 (): rc=0"},
        {"mr_alloc", "pd.id=1 mr.id=2 type=MEM_REG"},
        {"mr_dereg", "mr.id="},
        {"mr_dereg", "mr.id=4 junk"},
    };
    for (const auto& [ev, text] : bad) {
        EXPECT_FALSE(parse_mr_trace_body(ev, text, "").ok()) << ev << ": " << text;
    }
    auto ptr =
        parse_mr_trace_body("xprtrdma_wc_fastreg", "mr=00000000a1b2c3d4: SUCCESS (0/0x0)", "");
    EXPECT_NE(ptr.error().message.find("by address"), std::string::npos);
}

TEST(MrTraceParser, EveryTruncationOfACompletionIsRejectedNeverMisread) {
    const std::string line =
        "    kworker/1:1H-160     [001] ..s1.   101.000000: xprtrdma_wc_li: cq.id=2 mr.id=17 "
        "status=WR_FLUSH_ERR (5/0x0)";
    for (size_t n = 0; n < line.size(); ++n) {
        auto r = parse_mr_trace_line(std::string_view(line).substr(0, n));
        if (r.ok()) {
            EXPECT_FALSE(r->has_value()) << "cut at " << n << " read as an event";
        }
    }
    auto whole = parse_mr_trace_line(line);
    ASSERT_TRUE(whole.ok() && whole->has_value());
}

TEST(MrTraceParser, UnknownEventsAreSkipped) {
    auto r = parse_mr_trace_line(
        "nfsd-901 [000] ..... 5.0: svcrdma_wc_send: cq.id=1 cid=2 status=SUCCESS (0/0x0)");
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->has_value());
}

}  // namespace
}  // namespace rdmadiag::tracefs
