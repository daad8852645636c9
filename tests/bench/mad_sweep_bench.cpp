// The subnet sweep's own cost per MAD, without a simulator: a fat tree played by the fake
// fabric answers every MAD at once, so what is measured is the engine, the request builders and
// the decoders. Sizes up to 100,000 ports; the counters report MADs, CPU per MAD and ports.
// Linear cost means the per-MAD time stays flat as the fabric grows.

#include <benchmark/benchmark.h>

#include "collector/sources/mad/mad_sweep.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"

namespace {

using namespace rdmadiag::mad;

// leaves, spines and hosts per leaf for about 2,000 / 12,000 / 50,000 / 100,000 ports
// (dual-port hosts; every port counted, switch port 0 included).
test::FatTreeShape shape(int64_t size) {
    switch (size) {
        case 2:
            return {16, 16, 24, 2};
        case 12:
            return {64, 32, 32, 2};
        case 50:
            return {128, 64, 64, 2};
        default:
            return {250, 100, 50, 2};
    }
}

void BM_SubnetSweep(benchmark::State& state) {
    test::FakeFabric fabric = test::fat_tree(shape(state.range(0)));
    uint64_t mads = 0;
    for (auto _ : state) {
        MadEngine engine(fabric, MadEngineOptions{}, [&fabric] { return fabric.now; });
        MadSweeper sweeper(engine, SweepOptions{.sm_lid = fabric.sm_lid});
        SubnetReading reading = sweeper.sweep_subnet();
        benchmark::DoNotOptimize(reading);
        mads += engine.stats().sent;
        if (engine.stats().failed != 0) state.SkipWithError("a MAD failed on the fake fabric");
    }
    const auto ports = static_cast<double>(test::port_count(fabric));
    state.counters["ports"] = ports;
    state.counters["MADs"] =
        benchmark::Counter(static_cast<double>(mads) / static_cast<double>(state.iterations()));
    state.counters["per_MAD"] = benchmark::Counter(
        static_cast<double>(mads), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SubnetSweep)->Arg(2)->Arg(12)->Arg(50)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
