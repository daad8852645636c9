#include "collector/sources/tracefs/saved_trace.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::tracefs {
namespace {

constexpr const char* kFtraceEvent =
    "    kworker/1:1H-160     [001] ..s1.   102.000000: xprtrdma_wc_fastreg: cq.id=2 mr.id=17 "
    "status=MW_BIND_ERR (6/0x32)";
constexpr const char* kTraceCmdEvent =
    "    kworker/1:1H-160   [001]   102.000000: xprtrdma_wc_fastreg:  cq.id=2 mr.id=17 "
    "status=MW_BIND_ERR (6/0x32)";

TEST(SavedTrace, TheHeaderTellsTheFormat) {
    EXPECT_EQ(detect_saved_trace_format("# tracer: nop\n#\n" + std::string(kTraceCmdEvent)),
              SavedTraceFormat::ftrace);
    EXPECT_EQ(detect_saved_trace_format("version = 6\ncpus=4\n" + std::string(kFtraceEvent)),
              SavedTraceFormat::trace_cmd);
    EXPECT_EQ(detect_saved_trace_format("\nCPU 1 is empty\n"), SavedTraceFormat::trace_cmd);
}

TEST(SavedTrace, WithoutAHeaderTheFlagsColumnTellsTheFormat) {
    EXPECT_EQ(detect_saved_trace_format(std::string(kFtraceEvent) + "\n"),
              SavedTraceFormat::ftrace);
    EXPECT_EQ(detect_saved_trace_format(std::string(kTraceCmdEvent) + "\n"),
              SavedTraceFormat::trace_cmd);
    // Lines that say nothing are passed over to reach one that does.
    EXPECT_EQ(detect_saved_trace_format("garbage\n" + std::string(kTraceCmdEvent)),
              SavedTraceFormat::trace_cmd);
    EXPECT_EQ(detect_saved_trace_format(""), SavedTraceFormat::ftrace);
}

TEST(SavedTrace, BothPrintersGiveTheSameEvent) {
    auto a = parse_saved_trace_line(SavedTraceFormat::ftrace, kFtraceEvent, "mlx5_0");
    auto b = parse_saved_trace_line(SavedTraceFormat::trace_cmd, kTraceCmdEvent, "mlx5_0");
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_TRUE(a->has_value() && b->has_value());
    EXPECT_EQ((*a)->timestamp, (*b)->timestamp);
    EXPECT_EQ((*a)->mr, (*b)->mr);
    EXPECT_EQ((*b)->mr.device, "mlx5_0");
    EXPECT_EQ((*b)->mr.mr, 17u);
    EXPECT_EQ((*b)->mr.status, WcStatus::mw_bind_err);
}

TEST(SavedTrace, HeadersAndOtherEventsAreNothingBadLinesAreErrors) {
    for (auto format : {SavedTraceFormat::ftrace, SavedTraceFormat::trace_cmd}) {
        auto other = parse_saved_trace_line(
            format, "  k-160 [001] 101.000001: xprtrdma_qp_event: 192.168.1.2:20049 QP_FATAL (1)");
        ASSERT_TRUE(other.ok()) << other.error().message;
        EXPECT_FALSE(other->has_value());
        auto cut = parse_saved_trace_line(
            format, "  k-160 [001] 101.000000: xprtrdma_wc_li: cq.id=2 mr.id=17 status=WR_FL");
        EXPECT_FALSE(cut.ok());
    }
    auto header = parse_saved_trace_line(SavedTraceFormat::trace_cmd, "cpus=2");
    ASSERT_TRUE(header.ok());
    EXPECT_FALSE(header->has_value());
    // A trace-cmd header in a `trace` file is not a line that file prints.
    EXPECT_FALSE(parse_saved_trace_line(SavedTraceFormat::ftrace, "cpus=2").ok());
}

}  // namespace
}  // namespace rdmadiag::tracefs
