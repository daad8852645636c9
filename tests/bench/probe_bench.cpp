// Probe hot path, application side: ns per reported MR completion and per ignored successful
// ordinary completion, with 1 and 2 reporting threads. A collector (ProbeSource) drains the rings
// on its own thread, as the daemon would. Reports are timed in batches smaller than a ring, with
// an untimed pause between batches so the collector keeps up; "dropped" says if it did not.
// Targets: <= 20 ns per reported completion, <= 2 ns per ignored one.

#include <benchmark/benchmark.h>
#include <poll.h>
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

void pause_untimed(std::chrono::microseconds d) {
    auto until = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < until) {
    }
}

void BM_ReportedCompletion(benchmark::State& state) {
    const int dev = collector().device();
    uint32_t key = static_cast<uint32_t>(state.thread_index()) << 20;
    uint64_t dropped_before = rdmadiag_probe_dropped();
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kBatch; ++i) {
            rdmadiag_probe_wc(dev, RDMADIAG_OP_LOCAL_INV, 5 /* WR_FLUSH_ERR */, key++);
        }
        auto t1 = std::chrono::steady_clock::now();
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
        pause_untimed(std::chrono::microseconds(80));
    }
    state.SetItemsProcessed(state.iterations() * kBatch);
    state.counters["ns_per_report"] = benchmark::Counter(
        static_cast<double>(state.iterations() * kBatch),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
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
