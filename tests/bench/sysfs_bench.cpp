// One full sysfs sample of a generated 16 devices x 2 ports tree (128-entry P_Key tables, full
// counters/ and hw_counters/) against the bare file I/O it needs: open, read and close of exactly
// the files the sample reads, nothing else. Target: sample / bare <= 1.5.
//
//   build/tests/bench/sysfs_bench [--benchmark_repetitions=5] [--devices=N]
//
// BM_SysfsSteadyMinute: a minute of a daemon's polls at the default cadences (state and the fast
// counter tier every second, the slow tier every 15 s, P_Key and GID heads every 10 s) with the
// files held open, as on a mounted sysfs: the source's share of `rdmadiag serve`'s steady CPU.
//
// The tree is written under RDMADIAG_SYSFS_BENCH_DIR, or <build>/bench-data/sysfs, on every run.

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"
#include "tests/support/test_paths.hpp"

namespace {

using rdmadiag::Result;
namespace sysfs = rdmadiag::sysfs;

std::string g_root;
std::vector<std::string> g_files;  // what one sample reads, in order

// Notes the files a sample reads, so the baseline reads the very same ones.
class RecordingReader final : public sysfs::SysfsReader {
public:
    explicit RecordingReader(std::vector<std::string>* files) : files_(files) {}
    Result<size_t> read_file(const std::string& path, char* buf, size_t size) override {
        files_->push_back(path);
        return real_.read_file(path, buf, size);
    }
    Result<std::vector<std::string>> list_dir(const std::string& path) override {
        return real_.list_dir(path);
    }

private:
    std::vector<std::string>* files_;
    sysfs::PosixSysfsReader real_;
};

rdmadiag::sources::SourceSettings settings() {
    rdmadiag::sources::SourceSettings s;
    s.sysfs_root = g_root;
    return s;
}

void BM_SysfsFullSample(benchmark::State& state) {
    rdmadiag::sysfs::SysfsSource src(settings(), std::make_unique<sysfs::PosixSysfsReader>());
    size_t observations = 0;
    for (auto _ : state) {
        rdmadiag::sources::VectorSink sink;
        src.sample_all(rdmadiag::TimePoint{}, sink);
        observations = sink.observations.size();
        benchmark::DoNotOptimize(sink.observations.data());
    }
    state.counters["files"] = static_cast<double>(g_files.size());
    state.counters["observations"] = static_cast<double>(observations);
}

void BM_BareFileIo(benchmark::State& state) {
    char buf[sysfs::kReadBufferSize];
    size_t bytes = 0;
    for (auto _ : state) {
        for (const auto& path : g_files) {
            int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                state.SkipWithError("open failed");
                return;
            }
            ssize_t n = ::read(fd, buf, sizeof buf);
            ::close(fd);
            if (n > 0) bytes += static_cast<size_t>(n);
        }
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["files"] = static_cast<double>(g_files.size());
}

void BM_SysfsSteadyMinute(benchmark::State& state) {
    sysfs::SysfsSource src(settings(),
                           std::make_unique<sysfs::PosixSysfsReader>(sysfs::held_file_budget()));
    rdmadiag::TimePoint now{};
    rdmadiag::sources::VectorSink sink;
    // The first pass lists and opens everything: not what a daemon does every second.
    src.poll(now, sink);
    size_t observations = 0;
    for (auto _ : state) {
        observations = 0;
        for (int second = 0; second < 60; ++second) {
            now += std::chrono::seconds(1);
            sink.observations.clear();
            src.poll(now, sink);
            observations += sink.observations.size();
        }
        benchmark::DoNotOptimize(sink.observations.data());
    }
    state.counters["observations_per_minute"] = static_cast<double>(observations);
}

BENCHMARK(BM_SysfsFullSample)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_BareFileIo)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_SysfsSteadyMinute)->Unit(benchmark::kMicrosecond);

// Prints as usual and keeps each benchmark's mean real and CPU time for the closing ratio.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    RatioReporter() : ConsoleReporter(::isatty(STDOUT_FILENO) ? OO_Defaults : OO_Tabular) {}
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const auto& r : runs) {
            if (r.error_occurred) continue;
            // Plain runs are averaged here; with --benchmark_report_aggregates_only only the
            // library's mean comes through, and it is taken as is.
            const bool mean = r.run_type == Run::RT_Aggregate && r.aggregate_name == "mean";
            if (r.run_type == Run::RT_Aggregate && !mean) continue;
            auto& t = (mean ? means_ : times_)[r.run_name.function_name];
            t.real += r.GetAdjustedRealTime();
            t.cpu += r.GetAdjustedCPUTime();
            ++t.runs;
        }
    }
    struct Times {
        double real = 0;
        double cpu = 0;
        int runs = 0;
    };
    Times mean(const std::string& name) const {
        if (auto m = means_.find(name); m != means_.end() && m->second.runs > 0) {
            return m->second;
        }
        auto it = times_.find(name);
        if (it == times_.end() || it->second.runs == 0) return {};
        const Times& t = it->second;
        return Times{t.real / t.runs, t.cpu / t.runs, 1};
    }

private:
    std::map<std::string, Times> times_;
    std::map<std::string, Times> means_;
};

}  // namespace

int main(int argc, char** argv) {
    rdmadiag::test::SysfsTreeSpec spec;  // 16 x 2, 128 P_Keys, counters + hw_counters
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--devices=", 10) == 0) {
            spec.devices = static_cast<uint32_t>(std::atoi(argv[i] + 10));
        } else {
            args.push_back(argv[i]);
        }
    }
    int n = static_cast<int>(args.size());
    benchmark::Initialize(&n, args.data());

    const char* dir = std::getenv("RDMADIAG_SYSFS_BENCH_DIR");
    g_root = dir ? dir : ::rdmadiag::test::binary_dir() + "/bench-data/sysfs";
    if (auto r = rdmadiag::test::write_sysfs_tree(g_root, spec); !r) {
        std::fprintf(stderr, "sysfs_bench: %s\n", r.error().message.c_str());
        return 1;
    }
    {
        rdmadiag::sysfs::SysfsSource probe(settings(), std::make_unique<RecordingReader>(&g_files));
        rdmadiag::sources::VectorSink sink;
        probe.sample_all(rdmadiag::TimePoint{}, sink);
        for (const auto& o : sink.observations) {
            if (std::holds_alternative<rdmadiag::SampleError>(o.body)) {
                std::fprintf(stderr, "sysfs_bench: the generated tree does not read cleanly: %s\n",
                             std::get<rdmadiag::SampleError>(o.body).message.c_str());
                return 1;
            }
        }
    }
    std::printf(
        "tree: %s/class/infiniband, %u devices x %u ports, %u P_Keys, %zu files per sample\n",
        g_root.c_str(), spec.devices, spec.ports, spec.pkeys, g_files.size());

    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const auto sample = reporter.mean("BM_SysfsFullSample");
    const auto bare = reporter.mean("BM_BareFileIo");
    if (sample.runs > 0 && bare.runs > 0 && bare.real > 0 && bare.cpu > 0) {
        std::printf("\nfull sample: %.0f us real, %.0f us CPU\n", sample.real, sample.cpu);
        std::printf("bare file I/O: %.0f us real, %.0f us CPU\n", bare.real, bare.cpu);
        std::printf("ratio: %.3f real, %.3f CPU (target <= 1.5)\n", sample.real / bare.real,
                    sample.cpu / bare.cpu);
    }
    benchmark::Shutdown();
    return 0;
}
