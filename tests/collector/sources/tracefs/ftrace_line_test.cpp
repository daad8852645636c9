#include "collector/sources/tracefs/ftrace_line.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::tracefs {
namespace {

TEST(FtraceLine, SplitsTheCurrentPrefix) {
    auto r = split_ftrace_line(
        "    kworker/1:1H-160     [001] ..s1.   101.000002: xprtrdma_wc_li: cq.id=2 mr.id=17 "
        "status=WR_FLUSH_ERR (5/0x0)");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r->has_value());
    const FtraceLine& f = **r;
    EXPECT_EQ(f.comm, "kworker/1:1H");
    EXPECT_EQ(f.pid, 160u);
    EXPECT_EQ(f.cpu, 1u);
    EXPECT_EQ(f.timestamp, Duration{101000002000});
    EXPECT_EQ(f.event, "xprtrdma_wc_li");
    EXPECT_EQ(f.body, "cq.id=2 mr.id=17 status=WR_FLUSH_ERR (5/0x0)");
}

TEST(FtraceLine, ToleratesMissingFlagsTgidColumnAndDashedComm) {
    auto no_flags = split_ftrace_line("my-app-worker-77 [003] 12.5: mr_dereg: mr.id=3");
    ASSERT_TRUE(no_flags.ok() && no_flags->has_value());
    EXPECT_EQ((*no_flags)->comm, "my-app-worker");
    EXPECT_EQ((*no_flags)->pid, 77u);
    EXPECT_EQ((*no_flags)->timestamp, std::chrono::milliseconds(12500));

    auto tgid =
        split_ftrace_line("bash-1234    (   1200) [000] .....  7.000001: mr_dereg: mr.id=3");
    ASSERT_TRUE(tgid.ok() && tgid->has_value());
    EXPECT_EQ((*tgid)->comm, "bash");
    EXPECT_EQ((*tgid)->pid, 1234u);
    EXPECT_EQ((*tgid)->cpu, 0u);
}

TEST(FtraceLine, HeadersAndBlankLinesAreNothing) {
    for (const char* l : {"", "   ", "# tracer: nop", "#           TASK-PID     CPU#  |||||"}) {
        auto r = split_ftrace_line(l);
        ASSERT_TRUE(r.ok()) << l;
        EXPECT_FALSE(r->has_value()) << l;
    }
}

TEST(FtraceLine, GarbageIsAnError) {
    for (const char* l : {"hello world", "kworker-1 [000] ....  12: x: y",
                          "x-1 [0] 1.5:", "x-1 [0] 1.5: ev", "\x01\x02\xff"}) {
        EXPECT_FALSE(split_ftrace_line(l).ok()) << l;
    }
}

// A timestamp beyond what 64-bit nanoseconds hold (~292 years) is a bad timestamp, not a time
// that wraps around to a negative one.
TEST(FtraceLine, TimestampBeyondNanosecondRangeIsAnError) {
    EXPECT_FALSE(split_ftrace_line("x-1 [000] 9999999999.000000: mr_dereg: mr.id=1").ok());
    EXPECT_FALSE(split_ftrace_line("x-1 [000] 18446744073.709551615: mr_dereg: mr.id=1").ok());
    auto r = split_ftrace_line("x-1 [000] 9223372035.999999: mr_dereg: mr.id=1");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ((*r)->timestamp.count(), 9223372035999999000);
}

TEST(FtraceLine, FindsASplicedSecondRecord) {
    std::string_view a = "kw-1 [000] ..... 1.000001: mr_dereg: mr.id=3";
    std::string_view b = "    kw-2 [001] ..... 1.000002: mr_dereg: mr.id=4";
    std::string line = std::string(a) + std::string(b);
    size_t at = find_spliced_record(line);
    ASSERT_NE(at, std::string_view::npos);
    EXPECT_EQ(std::string_view(line).substr(at), "kw-2 [001] ..... 1.000002: mr_dereg: mr.id=4");
    EXPECT_EQ(find_spliced_record(a), std::string_view::npos);
    EXPECT_EQ(
        find_spliced_record("kw-1 [000] ..... 1.0: xprtrdma_wc_fastreg: mr.id=5: SUCCESS (0/0x0)"),
        std::string_view::npos);
}

}  // namespace
}  // namespace rdmadiag::tracefs
