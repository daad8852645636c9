// End to end on the sysfs fixture trees: sysfs source -> collector runtime -> engine -> snapshot
// -> /metrics text, compared with golden files in testdata/. After an intended change, rewrite
// them with RDMADIAG_UPDATE_GOLDEN=1 ./prometheus_golden_test and review the diff.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "collector/common/simple_yaml.hpp"
#include "collector/common/text_file.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::prom {
namespace {

std::string scrape_fixture(const std::string& root) {
    ManualClock clock(*parse_time("2026-12-02T12:00:00Z"));
    common::Logger log(
        common::LogLevel::error, common::LogFormat::logfmt, [](std::string_view) {}, &clock);
    auto engine = engine::make_default_engine();
    publish::SnapshotStore store;
    sources::SourceSettings settings;
    settings.sysfs_root = ::rdmadiag::test::fixtures_dir() + "/sysfs/" + root;
    auto source = sysfs::make_sysfs_source(settings);
    EXPECT_TRUE(source.ok());
    if (!source.ok()) return "";
    std::vector<std::unique_ptr<sources::Source>> sources;
    sources.push_back(std::move(*source));
    runtime::CollectorRuntime runtime(std::move(sources), *engine, store, clock, log);
    // Two rounds a P_Key interval or a slow counter interval apart, whichever is longer, so every
    // cadence of the source (fast and slow counters, P_Key tables) has run in both.
    runtime.step();
    clock.advance(std::max(settings.pkey_interval, settings.slow_counter_interval));
    runtime.step();
    // Without the collector's wall-clock timings: the golden files must not depend on the host.
    return snapshot_metrics_text(*store.latest());
}

class GoldenMetrics : public ::testing::TestWithParam<const char*> {};

TEST_P(GoldenMetrics, MatchesTheGoldenFile) {
    const std::string root = GetParam();
    const std::string golden = ::rdmadiag::test::source_dir() +
                               "/tests/exporters/prometheus/testdata/" + root + ".metrics";
    std::string got = scrape_fixture(root);
    ASSERT_FALSE(got.empty());
    const char* update = std::getenv("RDMADIAG_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        std::ofstream(golden, std::ios::binary) << got;
        GTEST_SKIP() << "rewrote " << golden;
    }
    auto want = common::read_text_file(golden);
    ASSERT_TRUE(want.ok()) << want.error().message << " (create it with RDMADIAG_UPDATE_GOLDEN=1)";
    EXPECT_EQ(got, *want) << "the /metrics output for " << root
                          << " changed; if intended, rerun with RDMADIAG_UPDATE_GOLDEN=1";
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GoldenMetrics,
                         ::testing::Values("mlx5-ib", "rxe-roce", "no-pma", "broken", "mlx4-i40iw",
                                           "node-exporter-mlx4-i40iw", "procfs-hfi1-mlx4-mlx5",
                                           "efa-perftest113-client", "efa-perftest113-server",
                                           "mlx5-roce-telegraf-hw_counters",
                                           "mlx5-telegraf-counters", "hfi1-hw_counters-netdata9091",
                                           "bnxt_re-roce-procfs675", "rxe-debian-6.1"),
                         [](const auto& p) {
                             std::string n = p.param;
                             for (auto& c : n) {
                                 if (c == '-' || c == '.') c = '_';
                             }
                             return n;
                         });

}  // namespace
}  // namespace rdmadiag::prom
