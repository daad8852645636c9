// What following a busy host's consumers costs: 4,000 QPs, 1,000 RDMA CM IDs and 64 IPoIB
// interfaces (two parents, 62 children, one address each) on the two ports of one InfiniBand
// HCA, four SRP hosts, QPs held by 40 processes and two kernel ULPs. Targets (the consumers
// issue): one refresh at most 5 ms of CPU; /metrics at most 200 series more than without them.
//
// BM_ConsumersRefresh is one pass of the consumers source: RDMA netlink's device, QP and CM ID
// dumps and rtnetlink's links and addresses, parsed from the bytes the kernel's layout gives
// (tests/collector/sources/netdev/rtnl_bytes.hpp answers them in-process), SRP hosts and process
// names from sysfs and procfs trees, grouped into inventories. The fake kernel's own time to
// build its answers is measured apart (fake_kernel_ms) and left out of source_ms.
// BM_EngineConsumers is the engine taking that inventory and judging it into a snapshot.
// BM_ConsumerSeries counts the series the inventory adds to /metrics.
//
//   build/tests/bench/consumers_bench --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <sys/socket.h>
#include <time.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/consumers/consumers_options.hpp"
#include "collector/sources/consumers/consumers_source.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag {
namespace {

constexpr int kQps = 4000;
constexpr int kCmIds = 1000;
constexpr int kIpoibPerPort = 32;  // a parent and 31 children on each of the two ports
constexpr int kSrpHosts = 4;
constexpr int kProcesses = 40;
constexpr uint64_t kGuid[3] = {0, 0x0002c90300001235, 0x0002c90300001236};

double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

std::string gid_text(uint64_t guid) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "fe80:0000:0000:0000:%04x:%04x:%04x:%04x",
                  static_cast<unsigned>(guid >> 48), static_cast<unsigned>((guid >> 32) & 0xffff),
                  static_cast<unsigned>((guid >> 16) & 0xffff),
                  static_cast<unsigned>(guid & 0xffff));
    return buf;
}

uint16_t child_pkey(int port, int child) {
    return static_cast<uint16_t>(0x8000 | (port * 0x100 + child));
}

netlink::NlSockAddr v4(uint8_t c, uint8_t d, uint16_t port) {
    netlink::NlSockAddr s;
    s.family = AF_INET;
    s.port = port;
    s.address = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, c, d};
    return s;
}

// The host above, as the kernel and its files would show it.
struct Host {
    test::FakeNetKernel kernel;
    test::TempDir sysfs{"consumers-bench-sysfs"};
    test::TempDir procfs{"consumers-bench-procfs"};
    double answer_ms = 0;  // the fake kernel's time building answers

    Host() {
        test::FakeNetKernel::Device mlx{1, "mlx5_0", "ib", {}};
        mlx.ports = {netlink::NlPort{1, "mlx5_0", 1, std::nullopt, ""},
                     netlink::NlPort{1, "mlx5_0", 2, std::nullopt, ""}};
        int32_t index = 10;
        for (int port = 1; port <= 2; ++port) {
            const int32_t parent = index;
            const std::string base = "ib" + std::to_string(port - 1);
            kernel.links.push_back(
                test::ipoib_link(index, base, 0xffff, kGuid[port], std::nullopt));
            kernel.addresses.push_back(
                test::ipv4(index, 10, 1, static_cast<uint8_t>(port * 100), 1, 16));
            ++index;
            for (int c = 1; c < kIpoibPerPort; ++c) {
                const uint16_t pkey = child_pkey(port, c);
                char name[32];
                std::snprintf(name, sizeof name, "%s.%04x", base.c_str(), pkey);
                kernel.links.push_back(test::ipoib_link(index, name, pkey, kGuid[port], parent));
                kernel.addresses.push_back(
                    test::ipv4(index, 10, 1, static_cast<uint8_t>(port * 100 + c), 1, 24));
                ++index;
            }
            write(sysfs.path() /
                      ("class/infiniband/mlx5_0/ports/" + std::to_string(port) + "/gids/0"),
                  gid_text(kGuid[port]) + "\n");
        }
        for (int q = 0; q < kQps; ++q) {
            netlink::NlQp qp;
            qp.qpn = static_cast<uint32_t>(100 + q);
            qp.port = static_cast<uint32_t>(1 + q % 2);
            qp.type = static_cast<uint8_t>(q % 7 == 0 ? 4 : 2);  // UD or RC
            qp.state = 3;                                        // RTS
            if (q % 10 == 0) {
                qp.owner.kernel_name = q % 20 == 0 ? "ib_ipoib" : "rpcrdma";
            } else {
                qp.owner.pid = static_cast<uint32_t>(1000 + q % kProcesses);
            }
            mlx.qps.push_back(qp);
        }
        for (int i = 0; i < kCmIds; ++i) {
            netlink::NlCmId id;
            id.id = static_cast<uint32_t>(i);
            id.port = static_cast<uint32_t>(1 + i % 2);
            id.port_space = 0x0106;
            id.state = 5;
            id.qp_type = 2;
            id.source = v4(static_cast<uint8_t>(100 * (1 + i % 2) + i % kIpoibPerPort), 1,
                           static_cast<uint16_t>(40000 + i));
            id.destination =
                v4(static_cast<uint8_t>(100 * (1 + i % 2) + i % kIpoibPerPort), 9, 7471);
            id.owner.pid = static_cast<uint32_t>(1000 + i % kProcesses);
            mlx.cm_ids.push_back(id);
        }
        kernel.devices.push_back(mlx);
        for (int h = 0; h < kSrpHosts; ++h) {
            const auto dir = sysfs.path() / ("class/scsi_host/host" + std::to_string(10 + h));
            const int port = 1 + h % 2;
            write(dir / "local_ib_device", "mlx5_0\n");
            write(dir / "local_ib_port", std::to_string(port) + "\n");
            write(dir / "pkey", "0xffff\n");
            write(dir / "sgid", gid_text(kGuid[port]) + "\n");
            write(dir / "dgid", gid_text(0x0002c90300009000 + static_cast<uint64_t>(h)) + "\n");
        }
        for (int p = 0; p < kProcesses; ++p)
            write(procfs.path() / (std::to_string(1000 + p) + "/comm"),
                  "worker" + std::to_string(p) + "\n");
    }

    // The kernel's transports, with the time spent building each answer kept apart.
    netdev::NetdevIo io() {
        netdev::NetdevIo io;
        io.rdma = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    const double t0 = thread_cpu_ms();
                    auto out = kernel.answer_rdma(r);
                    answer_ms += thread_cpu_ms() - t0;
                    return out;
                });
        };
        io.route = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    const double t0 = thread_cpu_ms();
                    auto out = kernel.answer_route(r);
                    answer_ms += thread_cpu_ms() - t0;
                    return out;
                });
        };
        return io;
    }

    sources::SourceSettings settings() const {
        sources::SourceSettings s;
        s.sysfs_root = sysfs.string();
        s.procfs_root = procfs.string();
        auto r = sources::resolve_source_options("consumers", consumers::consumers_options(), s);
        if (!r) std::fprintf(stderr, "consumers options: %s\n", r.error().message.c_str());
        return s;
    }
};

const ConsumerInventory* inventory_of(const sources::VectorSink& sink) {
    for (const auto& o : sink.observations)
        if (const auto* i = std::get_if<ConsumerInventory>(&o.body)) return i;
    return nullptr;
}

void BM_ConsumersRefresh(benchmark::State& state) {
    Host host;
    consumers::ConsumersSource source(host.settings(), host.io());
    TimePoint now{std::chrono::hours(24 * 365 * 50)};
    size_t consumers = 0;
    uint32_t listed_qps = 0;
    double total_ms = 0;
    for (auto _ : state) {
        sources::VectorSink sink;
        now += std::chrono::minutes(10);  // past the confirm interval: emitted every time
        const double t0 = thread_cpu_ms();
        source.poll(now, sink);
        total_ms += thread_cpu_ms() - t0;
        const ConsumerInventory* inv = inventory_of(sink);
        if (inv == nullptr) {
            state.SkipWithError("no inventory emitted");
            return;
        }
        consumers = inv->consumers.size();
        listed_qps = 0;
        for (const auto& c : inv->consumers)
            if (c.kind == ConsumerKind::qp) listed_qps += c.count;
    }
    const auto n = static_cast<double>(state.iterations());
    state.counters["source_ms"] = (total_ms - host.answer_ms) / n;
    state.counters["fake_kernel_ms"] = host.answer_ms / n;
    state.counters["rows"] = static_cast<double>(consumers);
    state.counters["qps"] = listed_qps;
}
BENCHMARK(BM_ConsumersRefresh)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// One inventory of the host, and the ports' P_Key tables holding every key it uses.
std::vector<Observation> engine_inputs(ConsumerInventory& inventory) {
    Host host;
    consumers::ConsumersSource source(host.settings(), host.io());
    sources::VectorSink sink;
    source.poll(TimePoint{std::chrono::hours(1)}, sink);
    std::vector<Observation> out;
    for (int port = 1; port <= 2; ++port) {
        std::vector<uint16_t> keys(128, 0);
        keys[0] = 0xffff;
        for (int c = 1; c < kIpoibPerPort; ++c) keys[static_cast<size_t>(c)] = child_pkey(port, c);
        out.push_back(Observation{
            TimePoint{std::chrono::seconds(1)}, "sysfs",
            PKeyTableSample{
                PortRef{"mlx5_0", static_cast<uint32_t>(port)}, PKeyView::device, {keys, {}}}});
    }
    if (const auto* inv = inventory_of(sink)) inventory = *inv;
    return out;
}

void BM_EngineConsumers(benchmark::State& state) {
    ConsumerInventory inventory;
    auto engine = engine::make_default_engine();
    for (const auto& o : engine_inputs(inventory)) engine->consume(o);
    TimePoint now{std::chrono::seconds(2)};
    for (auto _ : state) {
        now += std::chrono::seconds(30);
        engine->consume(Observation{now, "consumers", inventory});
        auto snap = engine->snapshot();
        benchmark::DoNotOptimize(snap);
    }
    state.counters["consumers"] = static_cast<double>(inventory.consumers.size());
}
BENCHMARK(BM_EngineConsumers)->Unit(benchmark::kMillisecond)->MinTime(2.0);

size_t series(const std::string& text) {
    size_t n = 0;
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = text.find('\n', at);
        if (text[at] != '#' && end != at) ++n;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return n;
}

void BM_ConsumerSeries(benchmark::State& state) {
    ConsumerInventory inventory;
    auto without = engine::make_default_engine();
    auto with = engine::make_default_engine();
    for (const auto& o : engine_inputs(inventory)) {
        without->consume(o);
        with->consume(o);
    }
    with->consume(Observation{TimePoint{std::chrono::seconds(2)}, "consumers", inventory});
    size_t added = 0;
    for (auto _ : state) {
        const std::string a = prom::snapshot_metrics_text(*without->snapshot());
        const std::string b = prom::snapshot_metrics_text(*with->snapshot());
        added = series(b) - series(a);
    }
    state.counters["series_added"] = static_cast<double>(added);
}
BENCHMARK(BM_ConsumerSeries)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace rdmadiag

BENCHMARK_MAIN();
