#include "collector/sources/tracefs/saved_trace_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <variant>

#include "collector/sources/tracefs/tracefs_options.hpp"
#include "collector/sources/tracefs/tracefs_source.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::tracefs {
namespace {

const std::string kSaved = ::rdmadiag::test::fixtures_dir() + "/tracefs/saved/";

template <class T>
std::vector<std::pair<TimePoint, T>> of_kind(const sources::VectorSink& sink) {
    std::vector<std::pair<TimePoint, T>> out;
    for (const auto& o : sink.observations) {
        if (const T* b = std::get_if<T>(&o.body)) out.emplace_back(o.time, *b);
    }
    return out;
}

sources::VectorSink read_once(SavedTraceSource& source) {
    sources::VectorSink sink;
    source.poll(TimePoint{} + std::chrono::hours(1), sink);
    return sink;
}

TEST(SavedTraceSource, BothPrintedFormsGiveTheSameMrEvents) {
    const Duration boot = std::chrono::seconds(1000);
    SavedTraceSource ftrace(kSaved + "xprtrdma-stuck.ftrace.txt", "mlx5_0", boot);
    SavedTraceSource trace_cmd(kSaved + "xprtrdma-stuck.trace-cmd.txt", "mlx5_0", boot);
    ASSERT_TRUE(ftrace.availability().available) << ftrace.availability().reason;
    ASSERT_TRUE(trace_cmd.availability().available) << trace_cmd.availability().reason;
    auto a = read_once(ftrace);
    auto b = read_once(trace_cmd);
    EXPECT_EQ(ftrace.format(), SavedTraceFormat::ftrace);
    EXPECT_EQ(trace_cmd.format(), SavedTraceFormat::trace_cmd);

    auto events = of_kind<MrEvent>(a);
    EXPECT_EQ(events, of_kind<MrEvent>(b));
    ASSERT_EQ(events.size(), 8u);
    // The trace clock counts from the boot time given.
    EXPECT_EQ(events.front().first, TimePoint{} + boot + std::chrono::microseconds(100000100));
    EXPECT_EQ(events.front().second.op, MrOp::alloc);
    EXPECT_EQ(events.back().second.mr, 18u);
    EXPECT_TRUE(of_kind<SampleError>(a).empty());
    EXPECT_TRUE(of_kind<SampleError>(b).empty());
    EXPECT_EQ(trace_cmd.stats().malformed, 0u);
    EXPECT_EQ(trace_cmd.stats().mr_events, 8u);
}

TEST(SavedTraceSource, SaysWhatItsKernelDidWithFlushedMrsAtItsLastTime) {
    const Duration boot = std::chrono::seconds(1000);
    {
        // No recycle event and no release given: not known, and the basis says what to give.
        SavedTraceSource src(kSaved + "xprtrdma-stuck.ftrace.txt", "mlx5_0", boot);
        auto sink = read_once(src);
        auto k = of_kind<MrKernelBehaviour>(sink);
        ASSERT_EQ(k.size(), 1u);
        EXPECT_EQ(k[0].second.flushed_mrs, FlushedMrHandling::not_known);
        const auto events = of_kind<MrEvent>(sink);
        EXPECT_EQ(k[0].first, events.back().first) << "at the trace's own last time";
    }
    {
        SavedTraceSource src(kSaved + "xprtrdma-stuck.ftrace.txt", "mlx5_0", boot, std::nullopt,
                             "6.1.0-18-amd64");
        auto sink = read_once(src);
        auto k = of_kind<MrKernelBehaviour>(sink);
        ASSERT_EQ(k.size(), 1u);
        EXPECT_EQ(k[0].second.flushed_mrs, FlushedMrHandling::destroyed);
        EXPECT_EQ(k[0].second.kernel, "6.1.0-18-amd64");
        // Told by an option, it comes before the first event, at that event's time.
        const auto first = std::find_if(
            sink.observations.begin(), sink.observations.end(),
            [](const Observation& o) { return !std::holds_alternative<SourceStatus>(o.body); });
        ASSERT_NE(first, sink.observations.end());
        EXPECT_TRUE(std::holds_alternative<MrKernelBehaviour>(first->body));
        EXPECT_EQ(first->time, of_kind<MrEvent>(sink).front().first);
    }
    {
        const test::TempDir dir("recycle");
        const std::string path = dir.file("recycle.trace");
        {
            std::ofstream out(path);
            out << "# tracer: nop\n#\n"
                << "    kworker/1:1H-160     [001] ..s1.   101.000000: xprtrdma_wc_li: cq.id=2 "
                   "mr.id=17 status=WR_FLUSH_ERR (5/0x0)\n"
                << "    kworker/1:1H-160     [001] ..s1.   101.000100: xprtrdma_mr_recycle: "
                   "mr.id=17 nents=1 4096@0x0000000012345678:0x00000105 (FROM_DEVICE)\n";
        }
        SavedTraceSource src(path, "mlx5_0", boot, std::nullopt, "6.1.0");
        auto k = of_kind<MrKernelBehaviour>(read_once(src));
        // The release first, then what the trace's own events show, which outranks it.
        ASSERT_EQ(k.size(), 2u);
        EXPECT_EQ(k[0].second.flushed_mrs, FlushedMrHandling::destroyed);
        EXPECT_EQ(k[1].second.flushed_mrs, FlushedMrHandling::recovered);
        std::remove(path.c_str());
    }
}

TEST(SavedTraceSource, ABadLineIsNamedByNumberAndCostsOnlyItself) {
    SavedTraceSource source(kSaved + "xprtrdma-damaged.trace-cmd.txt", "mlx5_0", Duration{});
    auto sink = read_once(source);
    std::vector<std::string> subjects;
    for (const auto& [t, e] : of_kind<SampleError>(sink)) subjects.push_back(e.subject);
    EXPECT_EQ(subjects, (std::vector<std::string>{
                            kSaved + "xprtrdma-damaged.trace-cmd.txt line 6",
                            kSaved + "xprtrdma-damaged.trace-cmd.txt line 7",
                            kSaved + "xprtrdma-damaged.trace-cmd.txt line 10",
                            kSaved + "xprtrdma-damaged.trace-cmd.txt line 11",
                        }));
    auto events = of_kind<MrEvent>(sink);
    ASSERT_EQ(events.size(), 4u);
    EXPECT_EQ(events[2].second.status, WcStatus::mw_bind_err);
    EXPECT_EQ(source.stats().lines, 11u);
    EXPECT_EQ(source.stats().malformed, 4u);
    auto status = of_kind<SourceStatus>(sink);
    ASSERT_EQ(status.size(), 1u);
    EXPECT_TRUE(status[0].second.up);
    EXPECT_NE(status[0].second.reason.find("4 skipped"), std::string::npos);

    // Read once: a second poll adds nothing.
    sources::VectorSink again;
    source.poll(TimePoint{} + std::chrono::hours(2), again);
    EXPECT_TRUE(again.observations.empty());
}

TEST(SavedTraceSource, AMissingFileIsUnavailableWithTheReason) {
    SavedTraceSource source(kSaved + "no-such-trace.txt", "", Duration{});
    EXPECT_FALSE(source.availability().available);
    EXPECT_NE(source.availability().reason.find("no-such-trace.txt"), std::string::npos);
    EXPECT_TRUE(read_once(source).observations.empty());
}

TEST(SavedTraceSource, TheRegistryEntryReadsTheFileItIsGivenWithTheBootTime) {
    sources::SourceSettings s;
    s.sysfs_root = kSaved + "no-sysfs";
    s.extra["tracefs.trace_file"] = kSaved + "xprtrdma-stuck.trace-cmd.txt";
    s.extra["tracefs.boot_time"] = "2025-12-31T23:58:00Z";
    s.extra["tracefs.device"] = "mlx5_0";
    auto made =
        tracefs_source_entry().factory(::rdmadiag::test::resolved(s, "tracefs", tracefs_options()));
    ASSERT_TRUE(made.ok()) << made.error().message;
    auto* saved = dynamic_cast<SavedTraceSource*>(made->get());
    ASSERT_NE(saved, nullptr);
    auto events = of_kind<MrEvent>(read_once(*saved));
    ASSERT_FALSE(events.empty());
    auto boot = parse_time("2025-12-31T23:58:00Z");
    ASSERT_TRUE(boot.ok());
    EXPECT_EQ(events.front().first, *boot + std::chrono::microseconds(100000100));
    EXPECT_EQ(events.front().second.device, "mlx5_0");
}

}  // namespace
}  // namespace rdmadiag::tracefs
