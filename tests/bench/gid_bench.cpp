// The GID views at fabric scale: a subnet sweep of 12,288 ports (6,144 dual-port nodes named as a
// sweep names them) gives every port an sma and an sm view. Measured: the engine's time to take a
// sweep's GID views when nothing changed (a confirmation), the time of the snapshot after one
// port's prefix changed (the fabric rules walk every port then), and the heap the GID state adds
// per port (engine and snapshot) against the same ports without GID views; and what `gids --watch`
// adds to a sweep that confirms every port (its follower compares each read with the last one and
// asks for a snapshot only on a change).
//
//   build/tests/bench/gid_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <vector>

#include "cli/render/gid_change_follower.hpp"
#include "collector/engine/default/default_engine.hpp"

namespace rdmadiag {
namespace {

constexpr int kNodes = 6144;
constexpr int kPortsPerNode = 2;
constexpr int kPorts = kNodes * kPortsPerNode;
constexpr uint64_t kPrefix = 0xfe80000000000000ull;

size_t heap_in_use() {
    const auto m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

std::string node_name(int n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "guid:0x%016llx",
                  0x0002c90300000000ull + static_cast<unsigned>(n));
    return buf;
}

TimePoint at(int seconds) {
    return TimePoint{std::chrono::seconds(1'700'000'000 + seconds)};
}

// What one sweep hands the engine: each port's state, and with `gids` its sma and sm views.
std::vector<Observation> sweep(int seconds, bool gids, uint64_t odd_prefix = kPrefix) {
    std::vector<Observation> out;
    out.reserve(static_cast<size_t>(kPorts) * 3);
    for (int n = 0; n < kNodes; ++n) {
        const std::string dev = node_name(n);
        for (uint32_t p = 1; p <= kPortsPerNode; ++p) {
            PortStateSample s;
            s.port = PortRef{dev, p};
            s.state = PortState::active;
            s.lid = static_cast<uint32_t>(n * 2 + p);
            out.push_back(Observation{at(seconds), "mad", s});
            if (!gids) continue;
            const uint64_t guid = 0x0002c90300000000ull + static_cast<uint64_t>(n) * 2 + p;
            const uint64_t prefix = (n == 0 && p == 1) ? odd_prefix : kPrefix;
            for (GidView v : {GidView::sma, GidView::sm}) {
                GidTableSample g;
                g.port = s.port;
                g.view = v;
                g.table.entries.push_back(
                    GidEntry{0,
                             Gid::from_parts(v == GidView::sma ? prefix : kPrefix, guid),
                             GidType::ib,
                             {}});
                out.push_back(Observation{at(seconds), "mad", std::move(g)});
            }
        }
    }
    return out;
}

void BM_GidConfirmingSweep(benchmark::State& state) {
    auto engine = engine::make_default_engine();
    for (const auto& o : sweep(0, true)) engine->consume(o);
    engine->snapshot();
    int t = 30;
    for (auto _ : state) {
        state.PauseTiming();
        auto stream = sweep(t, true);
        state.ResumeTiming();
        for (const auto& o : stream) engine->consume(o);
        benchmark::DoNotOptimize(engine->snapshot_on_change(std::chrono::seconds(15)));
        t += 30;
    }
    state.counters["ports"] = kPorts;
    state.counters["observations"] = static_cast<double>(kPorts) * 3;
}
BENCHMARK(BM_GidConfirmingSweep)->Unit(benchmark::kMillisecond)->Iterations(5);

// The same confirming sweep as BM_GidConfirmingSweep, each observation also shown to the
// follower of `gids --watch`, which prints nothing: no view changed.
void BM_GidWatchFollowingSweep(benchmark::State& state) {
    auto engine = engine::make_default_engine();
    cli::render::GidChangeFollower follower(*engine, PortRef{}, false);
    for (const auto& o : sweep(0, true)) {
        engine->consume(o);
        benchmark::DoNotOptimize(follower.seen(o));
    }
    engine->snapshot();
    int t = 30;
    size_t printed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto stream = sweep(t, true);
        state.ResumeTiming();
        for (const auto& o : stream) {
            engine->consume(o);
            printed += follower.seen(o).size();
        }
        benchmark::DoNotOptimize(engine->snapshot_on_change(std::chrono::seconds(15)));
        t += 30;
    }
    state.counters["ports"] = kPorts;
    state.counters["printed_bytes"] = static_cast<double>(printed);
}
BENCHMARK(BM_GidWatchFollowingSweep)->Unit(benchmark::kMillisecond)->Iterations(5);

// One port's prefix differs from the SM's: the snapshot after it runs the fabric rules.
void BM_GidSnapshotAfterOneChange(benchmark::State& state) {
    auto engine = engine::make_default_engine();
    for (const auto& o : sweep(0, true)) engine->consume(o);
    engine->snapshot();
    int t = 30;
    bool odd = false;
    for (auto _ : state) {
        state.PauseTiming();
        odd = !odd;
        GidTableSample g;
        g.port = PortRef{node_name(0), 1};
        g.view = GidView::sma;
        g.table.entries.push_back(GidEntry{
            0,
            Gid::from_parts(odd ? 0xfec0000000000000ull : kPrefix, 0x0002c90300000001ull + 1),
            GidType::ib,
            {}});
        engine->consume(Observation{at(t), "mad", std::move(g)});
        engine->advance(at(t + 61));
        state.ResumeTiming();
        benchmark::DoNotOptimize(engine->snapshot());
        t += 100;
    }
    state.counters["ports"] = kPorts;
}
BENCHMARK(BM_GidSnapshotAfterOneChange)->Unit(benchmark::kMillisecond)->Iterations(10);

void BM_GidMemoryPerPort(benchmark::State& state) {
    for (auto _ : state) {
        size_t per_port[2][2] = {};
        for (int with = 0; with < 2; ++with) {
            const size_t before = heap_in_use();
            auto engine = engine::make_default_engine();
            for (int pass = 0; pass < 2; ++pass) {
                for (const auto& o : sweep(pass * 30, with == 1)) engine->consume(o);
            }
            const size_t engine_bytes = heap_in_use() - before;
            auto snap = engine->snapshot();
            const size_t snapshot_bytes = heap_in_use() - before - engine_bytes;
            per_port[with][0] = engine_bytes / kPorts;
            per_port[with][1] = snapshot_bytes / kPorts;
            benchmark::DoNotOptimize(snap);
        }
        state.counters["ports"] = kPorts;
        state.counters["engine_B_per_port_without"] = static_cast<double>(per_port[0][0]);
        state.counters["engine_B_per_port_with"] = static_cast<double>(per_port[1][0]);
        state.counters["snapshot_B_per_port_without"] = static_cast<double>(per_port[0][1]);
        state.counters["snapshot_B_per_port_with"] = static_cast<double>(per_port[1][1]);
    }
}
BENCHMARK(BM_GidMemoryPerPort)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rdmadiag

BENCHMARK_MAIN();
