#include "collector/sources/tracefs/kernel_mr_behaviour.hpp"
#include "collector/sources/source_registry.hpp"
#include "collector/sources/tracefs/tracefs_options.hpp"
#include "tests/support/source_options.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::tracefs {
namespace {

TEST(KernelMrBehaviour, ReleaseNumbersSplitAt5_13) {
    EXPECT_EQ(flushed_mr_handling_of_release("6.1.0-18-amd64"), FlushedMrHandling::destroyed);
    EXPECT_EQ(flushed_mr_handling_of_release("5.13.0"), FlushedMrHandling::destroyed);
    EXPECT_EQ(flushed_mr_handling_of_release("5.14.0-362.el9.x86_64"),
              FlushedMrHandling::destroyed);
    EXPECT_EQ(flushed_mr_handling_of_release("5.12.19"), FlushedMrHandling::recovered);
    EXPECT_EQ(flushed_mr_handling_of_release("4.18.0-513.el8.x86_64"),
              FlushedMrHandling::recovered);
    EXPECT_EQ(flushed_mr_handling_of_release(""), FlushedMrHandling::not_known);
    EXPECT_EQ(flushed_mr_handling_of_release("linux"), FlushedMrHandling::not_known);
    EXPECT_EQ(flushed_mr_handling_of_release("6"), FlushedMrHandling::not_known);
    EXPECT_EQ(flushed_mr_handling_of_release("6."), FlushedMrHandling::not_known);
    EXPECT_EQ(flushed_mr_handling_of_release("99999999999999999999.1"),
              FlushedMrHandling::not_known);
}

TEST(KernelMrBehaviour, TracepointsOutrankTheRelease) {
    // A distribution kernel numbered 4.18 that took the change has no recycle tracepoint.
    auto b = mr_behaviour_from_kernel(true, false, "4.18.0-513.el8.x86_64");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::destroyed);
    EXPECT_NE(b.basis.find("no xprtrdma_mr_recycle"), std::string::npos) << b.basis;
    EXPECT_EQ(b.kernel, "4.18.0-513.el8.x86_64");
    b = mr_behaviour_from_kernel(true, true, "6.1.0");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::recovered);
    // Without rpcrdma loaded the release is all there is.
    b = mr_behaviour_from_kernel(false, false, "5.10.0-28-amd64");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::recovered);
    EXPECT_NE(b.basis.find("5.10.0-28-amd64"), std::string::npos) << b.basis;
    b = mr_behaviour_from_kernel(false, false, "");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::not_known);
    EXPECT_FALSE(b.basis.empty());
}

TEST(KernelMrBehaviour, RecycleEventLinesInBothPrintedForms) {
    EXPECT_TRUE(is_recycle_event_line(
        "  kworker/u8:2-123   [001] ..... 1234.567890: xprtrdma_mr_recycle: mr.id=5 nents=1 "
        "4096@0x0000000012345678:0x00000105 (FROM_DEVICE)"));
    EXPECT_TRUE(is_recycle_event_line(
        "   kworker/u8:2-123   [001]  1234.567890: xprtrdma_mr_recycle:   mr.id=5"));
    EXPECT_TRUE(is_recycle_event_line("kworker-1 [000] 5.0: xprtrdma_recover_mr: mr=0x1234"));
    EXPECT_FALSE(is_recycle_event_line(
        "kworker-1 [000] 5.0: xprtrdma_wc_li: cq.id=1 mr.id=5 status=WR_FLUSH_ERR (5/0x0)"));
    EXPECT_FALSE(is_recycle_event_line("xprtrdma_mr_recycle"));
    EXPECT_FALSE(is_recycle_event_line(""));
}

TEST(KernelMrBehaviour, SavedTraceJudgesByItsEventsThenTheGivenRelease) {
    auto b = saved_trace_mr_behaviour(true, "");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::recovered);
    b = saved_trace_mr_behaviour(false, "6.8.0-45-generic");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::destroyed);
    EXPECT_NE(b.basis.find("tracefs.kernel"), std::string::npos) << b.basis;
    EXPECT_NE(b.basis.find("6.8.0-45-generic"), std::string::npos) << b.basis;
    b = saved_trace_mr_behaviour(false, "");
    EXPECT_EQ(b.flushed_mrs, FlushedMrHandling::not_known);
    EXPECT_NE(b.basis.find("tracefs.kernel=RELEASE"), std::string::npos) << b.basis;
}

TEST(KernelMrBehaviour, TheOptionIsCheckedAndNamesItsBasis) {
    sources::SourceSettings s;
    EXPECT_FALSE(mr_behaviour_from_option(
        ::rdmadiag::test::resolved(s, "tracefs", tracefs_options()).options));
    s.extra["tracefs.flushed_mrs"] = "recovered";
    s.extra["tracefs.kernel"] = "5.4.0";
    auto given = mr_behaviour_from_option(
        ::rdmadiag::test::resolved(s, "tracefs", tracefs_options()).options);
    ASSERT_TRUE(given);
    EXPECT_EQ(given->flushed_mrs, FlushedMrHandling::recovered);
    EXPECT_EQ(given->kernel, "5.4.0");
    EXPECT_EQ(given->basis, "given by tracefs.flushed_mrs");
    for (const char* bad : {"not_known", "", "yes"}) {
        s.extra["tracefs.flushed_mrs"] = bad;
        EXPECT_FALSE(sources::resolve_source_options("tracefs", tracefs_options(), s).ok()) << bad;
    }
}

}  // namespace
}  // namespace rdmadiag::tracefs
