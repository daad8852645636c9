// Probe hot path, application side: ns per reported MR completion and per ignored successful
// ordinary completion, with 1 and 2 reporting threads. A collector (ProbeSource) drains the rings
// on its own thread, as the daemon would. Reports are timed in batches smaller than a ring, and
// between batches (untimed) the collector drains them; "dropped" says if any found a full ring.
// Targets: <= 20 ns per reported completion, <= 2 ns per ignored one. Run with a short
// --benchmark_min_time (e.g. 0.05): every timed report also costs the collector a drain.

#include <benchmark/benchmark.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "collector/probe/include/rdmadiag_probe.h"
#include "collector/probe/probe_source.hpp"

namespace {

using namespace rdmadiag;

class CountingSink final : public ObservationSink {
public:
    void emit(Observation obs) override {
        (void)obs;
        ++count;
    }
    uint64_t count = 0;
};

// One collector for the whole benchmark process, draining on its own thread.
class Collector {
public:
    Collector() {
        dir_ = std::filesystem::temp_directory_path() /
               ("rdmadiag-probe-bench-" + std::to_string(getpid()));
        SourceSettings s;
        s.extra["probe.socket"] = (dir_ / "probe.sock").string();
        path_ = s.extra["probe.socket"];
        src_ = std::make_unique<ProbeSource>(s);
        thread_ = std::thread([this] { run(); });
        if (rdmadiag_probe_init(path_.c_str()) != 0) std::abort();
        device_ = rdmadiag_probe_device("bench0");
    }
    ~Collector() {
        rdmadiag_probe_shutdown();
        stop_ = true;
        thread_.join();
        src_.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    int device() const { return device_; }
    uint64_t drained() const { return sink_count_.load(); }

private:
    void run() {
        CountingSink sink;
        int fd = src_->event_fds().at(0);
        while (!stop_) {
            pollfd p{fd, POLLIN, 0};
            ::poll(&p, 1, 0);
            TimePoint now{};
            if (p.revents & POLLIN) src_->on_readable(fd, now, sink);
            src_->poll(now, sink);
            sink_count_ = sink.count;
        }
    }
    std::filesystem::path dir_;
    std::string path_;
    std::unique_ptr<ProbeSource> src_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<uint64_t> sink_count_{0};
    int device_ = -1;
};

Collector& collector() {
    static Collector c;
    return c;
}

constexpr int kBatch = 1000;

// The reporting thread's own CPU time: on a shared machine, wall time would also count the
// moments the scheduler gave the core to someone else.
double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
std::atomic<uint64_t> g_reported{0};

// Waits (untimed) until the collector has drained everything reported so far, so every timed
// report finds room in its ring: the figure is the hot path, not the full-ring path.
void wait_drained() {
    const uint64_t want = g_reported.load();
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (collector().drained() < want && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::yield();
    }
}

void BM_ReportedCompletion(benchmark::State& state) {
    const int dev = collector().device();
    uint32_t key = static_cast<uint32_t>(state.thread_index()) << 20;
    const uint64_t dropped_before = rdmadiag_probe_dropped();
    double timed = 0;
    for (auto _ : state) {
        const double t0 = thread_cpu_seconds();
        for (int i = 0; i < kBatch; ++i) {
            rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5 /* WR_FLUSH_ERR */, key++);
        }
        const double secs = thread_cpu_seconds() - t0;
        timed += secs;
        state.SetIterationTime(secs);
        g_reported += kBatch;
        wait_drained();
    }
    state.SetItemsProcessed(state.iterations() * kBatch);
    state.counters["ns_per_report"] =
        benchmark::Counter(timed * 1e9 / static_cast<double>(state.iterations() * kBatch),
                           benchmark::Counter::kAvgThreads);
    state.counters["dropped"] = static_cast<double>(rdmadiag_probe_dropped() - dropped_before);
}
BENCHMARK(BM_ReportedCompletion)->UseManualTime()->Threads(1)->Threads(2);

void BM_IgnoredCompletion(benchmark::State& state) {
    const int dev = collector().device();
    // Status and opcode come from memory, as they would from a polled ibv_wc.
    std::vector<uint32_t> status(4096, 0);
    std::vector<rdmadiag_op> ops(4096, RDMADIAG_OP_OTHER);
    benchmark::DoNotOptimize(status.data());
    benchmark::DoNotOptimize(ops.data());
    size_t i = 0;
    for (auto _ : state) {
        rdmadiag_probe_wc(dev, ops[i & 4095], status[i & 4095], static_cast<uint32_t>(i));
        ++i;
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IgnoredCompletion)->Threads(1)->Threads(2);

}  // namespace

BENCHMARK_MAIN();
