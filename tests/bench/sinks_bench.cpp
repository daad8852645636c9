// What the sinks cost on a subnet-scope snapshot of a large fabric, without a simulator: a fat tree
// played by the fake fabric is swept twice, 30 s apart, the
// observations go through the default engine, and the latest snapshot is served as /metrics.
// Sizes: about 2,000 and 12,000 ports. Counters report series per port, text and gzip bytes, and
// heap bytes per port held by the engine, one snapshot, and both in steady state; and the time to
// build the partition model of the snapshot and judge it against an intent.
//
//   build/tests/bench/sinks_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>
#include <malloc.h>

#include "collector/engine/default/default_engine.hpp"
#include "collector/engine/partitions/partition_findings.hpp"
#include "collector/engine/partitions/partition_model.hpp"
#include "collector/publish/snapshot_store.hpp"
#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/mad_sweep.hpp"
#include "exporters/api/gzip_encoding.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"

namespace rdmadiag {
namespace {

using namespace std::chrono_literals;

mad::test::FatTreeShape shape(int64_t size) {
    return size == 2 ? mad::test::FatTreeShape{16, 16, 24, 2}
                     : mad::test::FatTreeShape{64, 32, 32, 2};
}

size_t heap_in_use() {
    const auto m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

struct Fed {
    std::unique_ptr<engine::Engine> engine;
    size_t ports = 0;
};

// Two subnet sweeps 30 s apart through the default engine.
Fed sweep_into_engine(int64_t size) {
    auto fabric = mad::test::fat_tree(shape(size));
    Fed fed{engine::make_default_engine(), mad::test::port_count(fabric)};
    for (int pass = 0; pass < 2; ++pass) {
        mad::MadEngine engine(fabric, mad::MadEngineOptions{}, [&fabric] { return fabric.now; });
        mad::MadSweeper sweeper(engine, mad::SweepOptions{.sm_lid = fabric.sm_lid});
        auto reading = sweeper.sweep_subnet();
        const TimePoint now{std::chrono::seconds(1'700'000'000 + 30 * pass)};
        mad::emit_observations(reading, {}, now, "mad", true,
                               [&](Observation o) { fed.engine->consume(o); });
    }
    return fed;
}

void BM_Metrics(benchmark::State& state) {
    auto fed = sweep_into_engine(state.range(0));
    publish::SnapshotStore store;
    store.publish(fed.engine->snapshot());
    size_t bytes = 0, gz = 0, series = 0;
    for (auto _ : state) {
        api::GzipSink sink;
        series = prom::write_snapshot_metrics(*store.latest(), nullptr,
                                              prom::MetricsDetail::standard, sink);
        auto z = sink.finish();
        gz = z ? z->size() : 0;
    }
    bytes = prom::snapshot_metrics_text(*store.latest()).size();
    const auto ports = static_cast<double>(fed.ports);
    state.counters["ports"] = ports;
    state.counters["series_per_port"] = static_cast<double>(series) / ports;
    state.counters["text_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["gzip_MB"] = static_cast<double>(gz) / 1e6;
}
BENCHMARK(BM_Metrics)->Arg(2)->Arg(12)->Unit(benchmark::kMillisecond)->Iterations(3);

// Heap per port: the engine's state, the first snapshot, and the steady state a daemon lives in
// (the engine, the published snapshot, and a further pass read and published over it). The last is
// what docs/deploying.md budgets: at most 8 KiB per port with the process around it.
void BM_MemoryPerPort(benchmark::State& state) {
    for (auto _ : state) {
        auto fabric = mad::test::fat_tree(shape(state.range(0)));
        const size_t with_fabric = heap_in_use();
        auto fed = sweep_into_engine(state.range(0));
        const size_t engine = heap_in_use();
        publish::SnapshotStore store;
        store.publish(fed.engine->snapshot());
        const size_t with_snapshot = heap_in_use();
        // One more pass over every node, published as the runtime publishes it.
        mad::MadEngine mads(fabric, mad::MadEngineOptions{}, [&fabric] { return fabric.now; });
        mad::MadSweeper sweeper(mads, mad::SweepOptions{.sm_lid = fabric.sm_lid});
        auto reading = sweeper.sweep_subnet();
        const TimePoint later{std::chrono::seconds(1'700'000'090)};
        mad::emit_observations(reading, {}, later, "mad", true,
                               [&](Observation o) { fed.engine->consume(o); });
        reading = {};
        store.publish(fed.engine->snapshot());
        // The fabric this bench plays is not the daemon's: counted out.
        const size_t steady = heap_in_use() - with_fabric;
        const auto ports = static_cast<double>(fed.ports);
        state.counters["ports"] = ports;
        state.counters["engine_B_per_port"] = static_cast<double>(engine - with_fabric) / ports;
        state.counters["snapshot_B_per_port"] = static_cast<double>(with_snapshot - engine) / ports;
        state.counters["steady_B_per_port"] = static_cast<double>(steady) / ports;
    }
}
BENCHMARK(BM_MemoryPerPort)->Arg(2)->Arg(12)->Iterations(1)->Unit(benchmark::kMillisecond);

// The partition model and the partition.* findings the engine works out when a P_Key table or the
// intent changed (target: at most 50 ms together at 12,000 ports): every P_Key view of every end
// port, and an intent that names every switch by GUID and every port by set, and that every CA
// port misses in one partition and exceeds in another, so each rule walks every member.
void BM_PartitionModel(benchmark::State& state) {
    auto fed = sweep_into_engine(state.range(0));
    const auto snapshot = fed.engine->snapshot();
    std::string text = "Default=0x7fff, ipoib : ALL=full ;\nStorage=0x8011 : ALL_CAS=limited";
    for (const auto& dev : snapshot->devices) {
        if (dev.info.node_type == "switch" && dev.info.node_guid) {
            text += ",\n  " + std::to_string(*dev.info.node_guid) +
                    "=full";  // decimal, as opensm allows
        }
    }
    text += " ;\n";
    const auto intent = rdmadiag::parse_partitions_conf(text);
    engine::Inventory inventory;
    std::vector<PortRef> refresh;
    size_t members = 0, findings = 0;
    for (auto _ : state) {
        engine::FindingBook book;
        engine::EngineContext ctx(snapshot->time, book, inventory, refresh);
        auto model = partitions::build_partition_model(*snapshot, &intent);
        partitions::judge_partitions(*snapshot, model, {}, ctx);
        members = 0;
        for (const auto& p : model.partitions) members += p.members.size();
        findings = book.active().size();
        benchmark::DoNotOptimize(model);
    }
    state.counters["ports"] = static_cast<double>(fed.ports);
    state.counters["members"] = static_cast<double>(members);
    state.counters["findings"] = static_cast<double>(findings);
}
BENCHMARK(BM_PartitionModel)->Arg(2)->Arg(12)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rdmadiag

BENCHMARK_MAIN();
