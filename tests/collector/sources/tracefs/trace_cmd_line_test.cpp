#include "collector/sources/tracefs/trace_cmd_line.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::tracefs {
namespace {

TEST(TraceCmdLine, SplitsThePrefixWithoutFlagsAndThePaddedEventName) {
    auto r = split_trace_cmd_line(
        "    kworker/1:1H-160   [001]   101.000000: xprtrdma_wc_li:       cq.id=2 mr.id=17 "
        "status=WR_FLUSH_ERR (5/0x0)");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r->has_value());
    const FtraceLine& f = **r;
    EXPECT_EQ(f.comm, "kworker/1:1H");
    EXPECT_EQ(f.pid, 160u);
    EXPECT_EQ(f.cpu, 1u);
    EXPECT_EQ(f.timestamp, Duration{101000000000});
    EXPECT_EQ(f.event, "xprtrdma_wc_li");
    EXPECT_EQ(f.body, "cq.id=2 mr.id=17 status=WR_FLUSH_ERR (5/0x0)");
}

TEST(TraceCmdLine, ReadsLatencyFlagsAndNanosecondTimestamps) {
    // `trace-cmd report -l -t`: the flags column after the cpu, nine digits of fraction.
    auto r = split_trace_cmd_line(
        "  mount.nfs-2211  [003] d..1.  100.000100123: mr_alloc:             pd.id=3 mr.id=17 "
        "type=MEM_REG max_num_sg=30 rc=0");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r->has_value());
    EXPECT_EQ((*r)->comm, "mount.nfs");
    EXPECT_EQ((*r)->pid, 2211u);
    EXPECT_EQ((*r)->cpu, 3u);
    EXPECT_EQ((*r)->timestamp, Duration{100000100123});
    EXPECT_EQ((*r)->event, "mr_alloc");
}

TEST(TraceCmdLine, ItsHeaderLinesAreNothing) {
    for (const char* l :
         {"", "  ", "version = 6", "cpus=4", "CPU 0 is empty", "CPU 12 is empty\r"}) {
        auto r = split_trace_cmd_line(l);
        ASSERT_TRUE(r.ok()) << l;
        EXPECT_FALSE(r->has_value()) << l;
        EXPECT_TRUE(is_trace_cmd_header(l)) << l;
    }
    for (const char* l : {"version = six", "cpus=", "CPU x is empty", "CPU 1 is busy"}) {
        EXPECT_FALSE(is_trace_cmd_header(l)) << l;
    }
}

TEST(TraceCmdLine, AnEventLineWithoutCpuOrPidIsAnError) {
    auto no_cpu = split_trace_cmd_line("kworker/1:1H-160   102.000200: mr_dereg: mr.id=3");
    ASSERT_FALSE(no_cpu.ok());
    EXPECT_NE(no_cpu.error().message.find("cpu"), std::string::npos);

    auto no_pid = split_trace_cmd_line("kworker [001] 102.000200: mr_dereg: mr.id=3");
    ASSERT_FALSE(no_pid.ok());
    EXPECT_NE(no_pid.error().message.find("pid"), std::string::npos);
}

TEST(TraceCmdLine, GarbageTruncatedAndCommentLinesAreErrors) {
    for (const char* l :
         {"\xfe\xff garbage that is no trace line at all", "    kworker/1:1H-160   [001]   101.00",
          "    kworker/1:1H-160   [001]   101.000000: xprtrdma_wc", "# tracer: nop"}) {
        auto r = split_trace_cmd_line(l);
        EXPECT_FALSE(r.ok()) << l;
    }
}

}  // namespace
}  // namespace rdmadiag::tracefs
