#include "collector/sources/tracefs/tracefs_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/tracefs/tracefs_options.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::tracefs {
namespace {

namespace fs = std::filesystem;

// A tracefs look-alike: the trace buffer file, a fifo as trace_pipe, and events/<sys>/<ev>/enable.
class FakeTracefs {
public:
    FakeTracefs() = default;
    void add_event(const std::string& sys, const std::string& ev, const char* enabled = "0") {
        fs::create_directories(root / "events" / sys / ev);
        std::ofstream(root / "events" / sys / ev / "enable") << enabled << "\n";
    }
    std::string enable_of(const std::string& sys, const std::string& ev) const {
        std::string v;
        std::ifstream(root / "events" / sys / ev / "enable") >> v;
        return v;
    }
    void write_trace(const std::string& text) { std::ofstream(root / "trace") << text; }
    void make_pipe() { ASSERT_EQ(mkfifo((root / "trace_pipe").c_str(), 0600), 0); }
    sources::SourceSettings settings() const {
        sources::SourceSettings s;
        s.tracefs_root = root.string();
        s.sysfs_root = (root / "no-sysfs").string();
        return s;
    }
    test::TempDir tmp_{"tracefs"};
    fs::path root = tmp_.path();
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<MrEvent> mr_events(const sources::VectorSink& sink) {
    std::vector<MrEvent> out;
    for (const auto& o : sink.observations) {
        if (auto* e = std::get_if<MrEvent>(&o.body)) out.push_back(*e);
    }
    return out;
}

TEST(TracefsSource, MissingRootSaysItIsNotTracefs) {
    sources::SourceSettings s;
    s.tracefs_root = "/nonexistent/tracing";
    TracefsSource src(s, TracefsMode::once, Duration::zero());
    EXPECT_FALSE(src.availability().available);
    EXPECT_NE(src.availability().reason.find("not a tracefs mount"), std::string::npos);
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    ASSERT_EQ(sink.observations.size(), 1u);
    EXPECT_EQ(std::get<SourceStatus>(sink.observations[0].body).up, false);
}

TEST(TracefsSource, MissingEventsSaysWhich) {
    FakeTracefs t;
    t.write_trace("");
    TracefsSource src(t.settings(), TracefsMode::once, Duration::zero());
    EXPECT_FALSE(src.availability().available);
    EXPECT_NE(src.availability().reason.find("no rpcrdma or rdma_core trace events"),
              std::string::npos);
}

TEST(TracefsSource, OnlyRdmaCoreIsUpWithANote) {
    FakeTracefs t;
    t.write_trace("");
    t.add_event("rdma_core", "mr_dereg", "1");
    TracefsSource src(t.settings(), TracefsMode::once, Duration::zero());
    EXPECT_TRUE(src.availability().available);
    EXPECT_NE(src.availability().reason.find("rpcrdma events absent"), std::string::npos);
}

TEST(TracefsSource, SaysWhatTheKernelDoesWithFlushedMrsWithItsFirstStatus) {
    FakeTracefs t;
    t.write_trace("");
    t.add_event("rpcrdma", "xprtrdma_wc_li");
    fs::create_directories(t.root / "proc/sys/kernel");
    std::ofstream(t.root / "proc/sys/kernel/osrelease") << "6.1.0-18-amd64\n";
    auto s = t.settings();
    s.procfs_root = (t.root / "proc").string();
    {
        TracefsSource src(s, TracefsMode::once, Duration::zero());
        sources::VectorSink sink;
        src.poll(TimePoint{}, sink);
        ASSERT_GE(sink.observations.size(), 2u);
        const auto* k = std::get_if<MrKernelBehaviour>(&sink.observations[1].body);
        ASSERT_NE(k, nullptr);
        EXPECT_EQ(k->flushed_mrs, FlushedMrHandling::destroyed);
        EXPECT_EQ(k->kernel, "6.1.0-18-amd64");
    }
    // The recycle tracepoint outranks the release: a backport of the old behaviour shows it.
    t.add_event("rpcrdma", "xprtrdma_mr_recycle");
    {
        TracefsSource src(s, TracefsMode::once, Duration::zero());
        sources::VectorSink sink;
        src.poll(TimePoint{}, sink);
        const auto* k = std::get_if<MrKernelBehaviour>(&sink.observations.at(1).body);
        ASSERT_NE(k, nullptr);
        EXPECT_EQ(k->flushed_mrs, FlushedMrHandling::recovered);
    }
    // An administrator's word outranks both.
    s.extra["tracefs.flushed_mrs"] = "destroyed";
    {
        TracefsSource src(::rdmadiag::test::resolved(s, "tracefs", tracefs_options()),
                          TracefsMode::once, Duration::zero());
        sources::VectorSink sink;
        src.poll(TimePoint{}, sink);
        const auto* k = std::get_if<MrKernelBehaviour>(&sink.observations.at(1).body);
        ASSERT_NE(k, nullptr);
        EXPECT_EQ(k->flushed_mrs, FlushedMrHandling::destroyed);
        EXPECT_EQ(k->basis, "given by tracefs.flushed_mrs");
    }
    s.extra["tracefs.flushed_mrs"] = "sometimes";
    auto bad = sources::resolve_source_options("tracefs", tracefs_options(), s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(
        bad.error().message,
        "tracefs source: tracefs.flushed_mrs must be recovered or destroyed, not 'sometimes'");
}

TEST(TracefsSource, OneShotReadsTheTraceBufferOnceAndTellsWhatIsNotEnabled) {
    FakeTracefs t;
    t.write_trace(slurp(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-current.trace"));
    t.add_event("rpcrdma", "xprtrdma_wc_li", "0");
    t.add_event("rdma_core", "mr_dereg", "1");
    TracefsSource src(t.settings(), TracefsMode::once, std::chrono::seconds(1000));
    ASSERT_TRUE(src.availability().available) << src.availability().reason;
    EXPECT_NE(src.availability().reason.find("not enabled: rpcrdma:xprtrdma_wc_li"),
              std::string::npos);
    EXPECT_EQ(t.enable_of("rpcrdma", "xprtrdma_wc_li"), "0");  // one-shot never enables
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto evs = mr_events(sink);
    ASSERT_EQ(evs.size(), 10u);
    // Trace clock + offset = wall time.
    auto first =
        std::find_if(sink.observations.begin(), sink.observations.end(),
                     [](const Observation& o) { return std::holds_alternative<MrEvent>(o.body); });
    ASSERT_NE(first, sink.observations.end());
    EXPECT_EQ(first->time,
              TimePoint{} + std::chrono::seconds(1000) + std::chrono::microseconds(100000100));
    src.poll(TimePoint{}, sink);
    EXPECT_EQ(mr_events(sink).size(), 10u);  // once means once
}

TEST(TracefsSource, DeviceComesFromTheOnlyRdmaDevice) {
    FakeTracefs t;
    t.write_trace("");
    t.add_event("rdma_core", "mr_dereg", "1");
    sources::SourceSettings s = t.settings();
    s.sysfs_root = (t.root / "sys").string();
    fs::create_directories(t.root / "sys/class/infiniband/rxe0");
    EXPECT_EQ(TracefsSource(s, TracefsMode::once, Duration::zero()).device(), "rxe0");
    fs::create_directories(t.root / "sys/class/infiniband/rxe1");
    EXPECT_EQ(TracefsSource(s, TracefsMode::once, Duration::zero()).device(), "");
    s.extra["tracefs.device"] = "mlx5_3";
    EXPECT_EQ(TracefsSource(::rdmadiag::test::resolved(s, "tracefs", tracefs_options()),
                            TracefsMode::once, Duration::zero())
                  .device(),
              "mlx5_3");
}

TEST(TracefsSource, FollowEnablesEventsReadsThePipeAndRestoresOnExit) {
    FakeTracefs t;
    t.write_trace("");
    t.make_pipe();
    t.add_event("rpcrdma", "xprtrdma_wc_li", "0");
    t.add_event("rpcrdma", "xprtrdma_wc_fastreg", "1");
    t.add_event("rpcrdma", "xprtrdma_qp_event", "0");  // not ours: left alone
    {
        TracefsSource src(t.settings(), TracefsMode::follow, Duration::zero());
        ASSERT_TRUE(src.availability().available) << src.availability().reason;
        EXPECT_EQ(t.enable_of("rpcrdma", "xprtrdma_wc_li"), "1");
        EXPECT_EQ(t.enable_of("rpcrdma", "xprtrdma_qp_event"), "0");
        ASSERT_EQ(src.event_fds().size(), 1u);
        int fd = src.event_fds()[0];

        int w = ::open((t.root / "trace_pipe").c_str(), O_WRONLY | O_NONBLOCK);
        ASSERT_GE(w, 0);
        // A record torn across two reads, then a whole one.
        std::string part1 = "kw-1 [000] ..... 5.000000: xprtrdma_wc_li: cq.id=1 mr.id=3 sta";
        std::string part2 = "tus=WR_FLUSH_ERR (5/0x0)\nkw-1 [000] ..... 6.0: mr_dereg: mr.id=3\n";
        ASSERT_EQ(::write(w, part1.data(), part1.size()), static_cast<ssize_t>(part1.size()));
        sources::VectorSink sink;
        src.on_readable(fd, TimePoint{}, sink);
        EXPECT_TRUE(mr_events(sink).empty());
        ASSERT_EQ(::write(w, part2.data(), part2.size()), static_cast<ssize_t>(part2.size()));
        src.on_readable(fd, TimePoint{}, sink);
        ::close(w);
        auto evs = mr_events(sink);
        ASSERT_EQ(evs.size(), 2u);
        EXPECT_EQ(evs[0].status, WcStatus::wr_flush_err);
        EXPECT_EQ(evs[1].op, MrOp::dereg);
    }
    EXPECT_EQ(t.enable_of("rpcrdma", "xprtrdma_wc_li"), "0");
    EXPECT_EQ(t.enable_of("rpcrdma", "xprtrdma_wc_fastreg"), "1");  // was on before us
}

std::vector<SourceStatus> statuses(const sources::VectorSink& sink) {
    std::vector<SourceStatus> out;
    for (const auto& o : sink.observations) {
        if (const auto* s = std::get_if<SourceStatus>(&o.body)) out.push_back(*s);
    }
    return out;
}

TEST(TracefsSource, EndedPipeGoesDownStopsWakingAndIsReopened) {
    FakeTracefs t;
    t.write_trace("");
    t.make_pipe();
    t.add_event("rdma_core", "mr_dereg", "1");
    TracefsSource src(t.settings(), TracefsMode::follow, Duration::zero());
    ASSERT_TRUE(src.availability().available) << src.availability().reason;
    ASSERT_EQ(src.event_fds().size(), 1u);
    const int fd = src.event_fds()[0];
    EXPECT_GT(src.poll_interval(), Duration::zero());  // to reopen an ended pipe

    const auto pipe = t.root / "trace_pipe";
    const auto away = t.root / "trace_pipe.away";
    int w = ::open(pipe.c_str(), O_WRONLY | O_NONBLOCK);
    ASSERT_GE(w, 0);
    std::string line = "kw-1 [000] ..... 6.0: mr_dereg: mr.id=3\n";
    ASSERT_EQ(::write(w, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    sources::VectorSink sink;
    src.on_readable(fd, TimePoint{}, sink);
    ASSERT_EQ(mr_events(sink).size(), 1u);

    // The writer goes away and the pipe with it: down, with the reason, until it can be reopened.
    fs::rename(pipe, away);
    ::close(w);
    src.on_readable(fd, TimePoint{}, sink);
    ASSERT_FALSE(statuses(sink).empty());
    EXPECT_FALSE(statuses(sink).back().up);
    EXPECT_NE(statuses(sink).back().reason.find("end of file"), std::string::npos)
        << statuses(sink).back().reason;
    EXPECT_FALSE(src.availability().available);
    ASSERT_EQ(src.event_fds(), std::vector<int>{fd});  // the collector's registration holds
    src.poll(TimePoint{}, sink);
    EXPECT_FALSE(statuses(sink).back().up);
    EXPECT_NE(statuses(sink).back().reason.find("cannot open"), std::string::npos);

    // Nothing left to read: the ended pipe no longer makes the descriptor readable.
    pollfd p{fd, POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 0), 0);

    fs::rename(away, pipe);
    src.poll(TimePoint{}, sink);
    EXPECT_TRUE(statuses(sink).back().up);
    EXPECT_TRUE(src.availability().available);
    w = ::open(pipe.c_str(), O_WRONLY | O_NONBLOCK);
    ASSERT_GE(w, 0);
    ASSERT_EQ(::write(w, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    ASSERT_EQ(::poll(&p, 1, 0), 1);
    src.on_readable(fd, TimePoint{}, sink);
    ::close(w);
    EXPECT_EQ(mr_events(sink).size(), 2u);
}

TEST(TracefsSource, SplicedAndGarbledLinesCostOnlyThemselves) {
    FakeTracefs t;
    t.write_trace("");
    t.add_event("rdma_core", "mr_dereg", "1");
    TracefsSource src(t.settings(), TracefsMode::once, Duration::zero());
    sources::VectorSink sink;
    src.feed(
        "kw-1 [000] ..... 1.0: xprtrdma_wc_li: cq.id=1 mr.id=3 status=SUCCkw-2 [001] ..... "
        "1.1: mr_dereg: mr.id=4\n"
        "\x01\x02garbage\xff\n"
        "kw-1 [000] ..... 2.0: mr_dereg: mr.id=5\n",
        sink);
    auto evs = mr_events(sink);
    ASSERT_EQ(evs.size(), 2u);
    EXPECT_EQ(evs[0].mr, 4u);
    EXPECT_EQ(evs[1].mr, 5u);
    EXPECT_EQ(src.stats().spliced, 1u);
    EXPECT_EQ(src.stats().malformed, 2u);
    size_t errors = 0;
    for (const auto& o : sink.observations) errors += std::holds_alternative<SampleError>(o.body);
    EXPECT_EQ(errors, 2u);
}

TEST(TracefsSource, XprtrdmaStoryFromATraceLog) {
    FakeTracefs t;
    t.write_trace(slurp(::rdmadiag::test::fixtures_dir() + "/tracefs/xprtrdma-current.trace"));
    t.add_event("rpcrdma", "xprtrdma_wc_li", "1");
    sources::SourceSettings s = t.settings();
    s.extra["tracefs.device"] = "mlx5_0";
    TracefsSource src(::rdmadiag::test::resolved(s, "tracefs", tracefs_options()),
                      TracefsMode::once, Duration::zero());
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto engine = engine::make_default_engine();
    bool saw_critical = false;
    for (const auto& o : sink.observations) {
        engine->consume(o);
        FindingSubject subj;
        subj.device = "mlx5_0";
        subj.mr = 17;
        if (engine->findings().find("mr.needs_dereg", subj)) saw_critical = true;
    }
    EXPECT_TRUE(saw_critical);
    EXPECT_TRUE(engine->findings().active().empty());
    auto snap = engine->snapshot();
    ASSERT_EQ(snap->mrs.recoveries.size(), 1u);
    EXPECT_EQ(snap->mrs.recoveries[0].recovered - snap->mrs.recoveries[0].flagged_since,
              std::chrono::seconds(2));
}

}  // namespace
}  // namespace rdmadiag::tracefs
