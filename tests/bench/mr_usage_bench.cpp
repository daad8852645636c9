// Who holds the MRs, on a busy host: each RDMA netlink poll lists every MR of the host. Measured
// at 200,000 MRs held by 2,000 processes over 4 devices (a large storage or AI node; mlx5's
// max_mr is 2^24): the engine's time to take one poll's listings (every device's, plus the
// host-wide one it skips), the snapshot's time, and the heap the per-process histories hold once
// a whole leak window of polls (10 min at 10 s) has been taken.
//
//   build/tests/bench/mr_usage_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <string>
#include <vector>

#include "collector/engine/default/default_engine.hpp"

namespace rdmadiag {
namespace {

constexpr int kDevices = 4;
constexpr int kProcesses = 2000;
constexpr int kMrsPerProcess = 100;  // 200,000 MRs in all

size_t heap_in_use() {
    const auto m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

TimePoint at(int seconds) {
    return TimePoint{std::chrono::seconds(1'700'000'000 + seconds)};
}

// One poll's listings: process p's MRs on device p % kDevices; the first process leaks 20 MRs a
// poll (1,200 in the 10-minute window: a leak), the rest hold steady.
std::vector<MrInventory> listings(int poll) {
    std::vector<MrInventory> out(kDevices);
    for (int d = 0; d < kDevices; ++d) out[d].device = "mlx5_" + std::to_string(d);
    uint64_t id = 1;
    for (int p = 0; p < kProcesses; ++p) {
        auto& inv = out[p % kDevices];
        const int n = kMrsPerProcess + (p == 0 ? 20 * poll : 0);
        for (int i = 0; i < n; ++i) {
            MrInventory::Entry e;
            e.mr = id++;
            e.pid = static_cast<uint32_t>(10000 + p);
            e.comm = "worker" + std::to_string(p % 50);
            e.length = 1 << 20;
            inv.mrs.push_back(std::move(e));
        }
    }
    MrInventory host;
    host.device = "";
    for (const auto& inv : out) host.mrs.insert(host.mrs.end(), inv.mrs.begin(), inv.mrs.end());
    out.push_back(std::move(host));
    return out;
}

void BM_TakeOnePoll(benchmark::State& state) {
    auto engine = engine::make_default_engine();
    for (int d = 0; d < kDevices; ++d)
        engine->consume(
            Observation{at(0), "verbs", DeviceLimits{"mlx5_" + std::to_string(d), 1u << 24}});
    int poll = 0;
    std::vector<std::vector<MrInventory>> prepared;
    for (int i = 0; i < 8; ++i) prepared.push_back(listings(i));
    for (auto _ : state) {
        const auto& polls = prepared[static_cast<size_t>(poll % 8)];
        for (const auto& inv : polls) engine->consume(Observation{at(10 * poll), "netlink", inv});
        engine->advance(at(10 * poll));
        ++poll;
    }
    // The time column is the time of one poll: every device's listing and the host-wide one.
    state.counters["mrs_per_poll"] = kProcesses * kMrsPerProcess;
}
BENCHMARK(BM_TakeOnePoll)->Unit(benchmark::kMillisecond);

void BM_SnapshotAndHistoryHeap(benchmark::State& state) {
    for (auto _ : state) {
        state.PauseTiming();
        const size_t before = heap_in_use();
        auto engine = engine::make_default_engine();
        for (int poll = 0; poll <= 60; ++poll) {
            for (const auto& inv : listings(poll))
                engine->consume(Observation{at(10 * poll), "netlink", inv});
            engine->advance(at(10 * poll));
        }
        const size_t after = heap_in_use();
        state.ResumeTiming();
        auto snap = engine->snapshot();
        benchmark::DoNotOptimize(snap);
        state.PauseTiming();
        // The usage histories and the health tracker's last listings (8 bytes per MR, per device
        // and host-wide) together.
        state.counters["engine_bytes_per_process"] =
            static_cast<double>(after - before) / kProcesses;
        state.counters["engine_bytes_per_mr"] =
            static_cast<double>(after - before) / (kProcesses * kMrsPerProcess);
        state.counters["leak_found"] = snap->mrs.usage.processes.at(0).leak_suspected ? 1 : 0;
        state.ResumeTiming();
    }
}
BENCHMARK(BM_SnapshotAndHistoryHeap)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace rdmadiag

BENCHMARK_MAIN();
