// tracefs parsing speed: lines per second on one core, for the pure line parser and for the
// source's chunk path (line splitting, splice check, parsing, emitting). The input mixes both
// kernel generations' MR events with unrelated events, as a busy NFS/RDMA host's trace_pipe
// does. Target: >= 1 million lines per second.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "collector/sources/tracefs/mr_trace_parser.hpp"
#include "collector/sources/tracefs/tracefs_source.hpp"

namespace {

using namespace rdmadiag;

std::vector<std::string> make_lines(size_t n) {
    // Lines are built by substitution (not printf) so the templates stay checked text.
    const char* templates[] = {
        "    kworker/1:1H-160     [001] ..s1.   @T: xprtrdma_wc_fastreg: cq.id=2 mr.id=@M "
        "status=SUCCESS (0/0x0)",
        "    kworker/1:1H-160     [001] ..s1.   @T: xprtrdma_wc_li: cq.id=2 mr.id=@M "
        "status=WR_FLUSH_ERR (5/0x0)",
        "    kworker/0:1H-150   [000] ..s1    @T: xprtrdma_wc_li_wake: mr.id=@M: SUCCESS (0/0x0)",
        "    kworker/u8:0-12      [002] .....   @T: xprtrdma_frwr_dereg: mr.id=@M nents=1 "
        "4096@0x0000000812345000:0x00001204 (FROM_DEVICE): rc=0",
        "       mount.nfs-2211    [001] .....   @T: mr_alloc: pd.id=3 mr.id=@M type=MEM_REG "
        "max_num_sg=30 rc=0",
        "          <idle>-0       [003] d.h2.   @T: sched_switch: prev_comm=swapper/3 "
        "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=nfsd next_pid=@M next_prio=120",
        "    kworker/u8:2-88      [000] .....   @T: xprtrdma_wc_send: cq.id=1 cid=@M "
        "status=SUCCESS (0/0x0)",
    };
    std::vector<std::string> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        std::string line = templates[i % 7];
        char ts[32];
        std::snprintf(ts, sizeof ts, "%u.%06u", static_cast<unsigned>(100 + i / 1000000),
                      static_cast<unsigned>(i % 1000000));
        line.replace(line.find("@T"), 2, ts);
        line.replace(line.find("@M"), 2, std::to_string(i % 4096));
        out.push_back(std::move(line));
    }
    return out;
}

void BM_ParseTraceLines(benchmark::State& state) {
    auto lines = make_lines(100000);
    size_t events = 0;
    for (auto _ : state) {
        for (const auto& l : lines) {
            auto r = tracefs::parse_mr_trace_line(l, "mlx5_0");
            events += r.ok() && r->has_value();
        }
    }
    benchmark::DoNotOptimize(events);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * lines.size()));
    state.counters["lines_per_second"] = benchmark::Counter(
        static_cast<double>(state.iterations() * lines.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseTraceLines)->Unit(benchmark::kMillisecond);

class CountingSink final : public sources::ObservationSink {
public:
    void emit(Observation obs) override {
        (void)obs;
        ++count;
    }
    uint64_t count = 0;
};

void BM_TracefsSourceFeed(benchmark::State& state) {
    auto lines = make_lines(100000);
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    sources::SourceSettings s;
    s.tracefs_root = "/nonexistent";  // feed() needs no tracefs
    s.options.set("tracefs.device", std::string("mlx5_0"), true);
    tracefs::TracefsSource src(s, tracefs::TracefsMode::once, Duration::zero());
    CountingSink sink;
    for (auto _ : state) {
        for (size_t off = 0; off < text.size(); off += 65536) {
            src.feed(std::string_view(text).substr(off, 65536), sink);
        }
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * lines.size()));
    state.counters["lines_per_second"] = benchmark::Counter(
        static_cast<double>(state.iterations() * lines.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TracefsSourceFeed)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
