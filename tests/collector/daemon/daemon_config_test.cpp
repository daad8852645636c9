#include "collector/daemon/daemon_config.hpp"
#include "collector/runtime/open_sources.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::daemon {
namespace {

TEST(DaemonConfig, DefaultsListenOnTheRdmadiagPort) {
    DaemonConfig c;
    EXPECT_EQ(c.web.listen_address, ":9857");
    EXPECT_EQ(kDefaultPort, 9857);
    for (int taken : {9100, 9315, 9683, 9879}) EXPECT_NE(kDefaultPort, taken);
}

TEST(DaemonConfig, AppliesEverySection) {
    DaemonConfig c;
    auto r = apply_config_text(R"(
web:
  listen-address: 127.0.0.1:9999
  config-file: /etc/rdmadiag/web.yml
  max-connections: 4
  request-timeout: 2s
  max-request-bytes: 4096
log:
  level: debug
  format: json
metrics:
  detail: full
path:
  sysfs: /fixtures/sys
  tracefs: /fixtures/tracing
  procfs: /fixtures/proc
devices:
  include: mlx5_*,rxe0
  exclude: [mlx5_9]
intervals:
  counters: 500ms
  slow-counters: 20s
  pkeys: 5s
sources:
  sysfs: true
  tracefs: no
source-options:
  mad.scope: subnet
simulate: pkey-stale
)",
                               c);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(c.web.listen_address, "127.0.0.1:9999");
    EXPECT_EQ(c.web.config_file, "/etc/rdmadiag/web.yml");
    EXPECT_EQ(c.web.max_connections, 4u);
    EXPECT_EQ(c.web.request_timeout, std::chrono::seconds(2));
    EXPECT_EQ(c.web.max_request_bytes, 4096u);
    EXPECT_EQ(c.log_level, common::LogLevel::debug);
    EXPECT_EQ(c.log_format, common::LogFormat::json);
    EXPECT_TRUE(c.metrics_full_detail);
    EXPECT_EQ(c.collector.sources.sysfs_root, "/fixtures/sys");
    EXPECT_EQ(c.collector.sources.tracefs_root, "/fixtures/tracing");
    EXPECT_EQ(c.collector.sources.procfs_root, "/fixtures/proc");
    EXPECT_EQ(c.collector.sources.include_devices, (std::vector<std::string>{"mlx5_*", "rxe0"}));
    EXPECT_EQ(c.collector.sources.exclude_devices, (std::vector<std::string>{"mlx5_9"}));
    EXPECT_EQ(c.collector.sources.counter_interval, std::chrono::milliseconds(500));
    EXPECT_EQ(c.collector.sources.slow_counter_interval, std::chrono::seconds(20));
    EXPECT_EQ(c.collector.sources.pkey_interval, std::chrono::seconds(5));
    EXPECT_EQ(c.collector.source_switches.at("sysfs"), true);
    EXPECT_EQ(c.collector.source_switches.at("tracefs"), false);
    EXPECT_EQ(c.collector.sources.extra.at("mad.scope"), "subnet");
    EXPECT_EQ(c.collector.simulate, "pkey-stale");
}

TEST(DaemonConfig, MrThresholdsReachTheEngine) {
    DaemonConfig c;
    auto r = apply_config_text(R"(mr:
  unknown-threshold: 45s
  teardown-timeout: 2m
  leak-window: 30m
  leak-min-mrs: 5000
  leak-min-bytes: 4294967296
  top-processes: 20
  exhaustion-percent: 80
  owner-gone-grace: 1m
)",
                               c);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(c.engine.mr.unknown_threshold, std::chrono::seconds(45));
    EXPECT_EQ(c.engine.mr.teardown_timeout, std::chrono::minutes(2));
    EXPECT_EQ(c.engine.mr_usage.leak_window, std::chrono::minutes(30));
    EXPECT_EQ(c.engine.mr_usage.leak_min_mrs, 5000u);
    EXPECT_EQ(c.engine.mr_usage.leak_min_bytes, uint64_t{1} << 32);
    EXPECT_EQ(c.engine.mr_usage.top_processes, 20u);
    EXPECT_DOUBLE_EQ(c.engine.mr_usage.exhaustion_ratio, 0.8);
    EXPECT_DOUBLE_EQ(c.engine.mr_usage.exhaustion_clear_ratio, 0.75);
    EXPECT_EQ(c.engine.mr_usage.owner_gone_grace, std::chrono::minutes(1));
}

TEST(DaemonConfig, PartitionsNameTheSmIntentAndSwitchItsSourceOn) {
    DaemonConfig c;
    auto r = apply_config_text(R"(
partitions:
  conf: /etc/opensm/partitions.conf
  sm-port-guid: 0x0002c90300001234
)",
                               c);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(c.collector.sources.extra.at("partitions.conf"), "/etc/opensm/partitions.conf");
    EXPECT_EQ(c.collector.sources.extra.at("partitions.sm_port_guid"), "0x0002c90300001234");
    sources::SourceRegistry reg;
    reg.add(partitions_conf::partitions_source_entry());
    EXPECT_EQ(*runtime::select_sources(reg, c.collector), std::vector<std::string>{"partitions"});

    DaemonConfig guid_only;
    ASSERT_TRUE(apply_config_text("partitions:\n  sm-port-guid: 4660\n", guid_only, &reg).ok());
    EXPECT_TRUE(runtime::select_sources(reg, guid_only.collector)->empty())
        << "without a file there is nothing to read";
}

// Checked against the sources' declarations, a file's source options say what is wrong where.
TEST(DaemonConfig, SourceOptionsAreCheckedAsTheirSourceDeclaresThem) {
    sources::SourceRegistry reg;
    reg.add(partitions_conf::partitions_source_entry());
    struct Case {
        const char* text;
        const char* message;
    };
    for (const auto& [text, message] : {
             Case{"partitions:\n  sm-port-guid: 0xZZ\n",
                  "line 2: partitions source: partitions.sm_port_guid must be a GUID other than "
                  "0, not '0xZZ'"},
             Case{"partitions:\n  config: /x\n", "line 2: unknown setting partitions.config"},
             Case{"source-options:\n  partitions.conf: \"\"\n",
                  "line 2: partitions source: partitions.conf must be a path, not ''"},
             Case{"source-options:\n  mad.scope: subnet\n",
                  "line 2: unknown source option 'mad.scope'"},
             Case{"mad:\n  scope: subnet\n", "line 2: unknown setting mad"},
         }) {
        DaemonConfig c;
        auto r = apply_config_text(text, c, &reg);
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error().message, message);
    }
    DaemonConfig c;
    ASSERT_TRUE(
        apply_config_text("source-options:\n  partitions.sm_port_guid: 0x12\n", c, &reg).ok());
    EXPECT_EQ(c.collector.sources.extra.at("partitions.sm_port_guid"), "0x12");
}

TEST(DaemonConfig, SimulateTrueOrEmptyMeansTheDefaultScenario) {
    DaemonConfig a, b, d;
    ASSERT_TRUE(apply_config_text("simulate: true\n", a).ok());
    EXPECT_EQ(a.collector.simulate, "");
    ASSERT_TRUE(apply_config_text("simulate:\n", b).ok());
    EXPECT_EQ(b.collector.simulate, "");
    d.collector.simulate = "x";
    ASSERT_TRUE(apply_config_text("simulate: false\n", d).ok());
    EXPECT_FALSE(d.collector.simulate);
}

struct Bad {
    const char* text;
    const char* message;
};
class DaemonConfigErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(DaemonConfigErrors, NameTheSettingAndLine) {
    DaemonConfig c;
    auto r = apply_config_text(GetParam().text, c);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(GetParam().message), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DaemonConfigErrors,
    ::testing::Values(Bad{"web:\n  listen-adress: :1\n",
                          "line 2: unknown setting web.listen-adress"},
                      Bad{"colour: blue\n", "unknown setting colour"},
                      Bad{"log:\n  level: loud\n", "log.level must be"},
                      Bad{"log:\n  format: xml\n", "log.format must be"},
                      Bad{"metrics:\n  detail: some\n", "metrics.detail must be standard or full"},
                      Bad{"metrics:\n  series: 3\n", "unknown setting metrics.series"},
                      Bad{"web:\n  max-connections: -3\n", "positive whole number"},
                      Bad{"web:\n  max-connections: 0\n", "positive whole number"},
                      Bad{"web:\n  max-connections: 18446744073709551616\n",
                          "max-connections must be a positive whole number, at most 1024"},
                      Bad{"web:\n  max-connections: 1025\n", "at most 1024"},
                      Bad{"web:\n  max-request-bytes: 1e6\n", "at most 1048576"},
                      Bad{"web:\n  max-pending-connections: 65537\n", "at most 65536"},
                      Bad{"intervals:\n  counters: soon\n", "must be a duration"},
                      Bad{"intervals:\n  pkeys: 0s\n", "must be a duration"},
                      Bad{"intervals:\n  slow-counters: -1s\n", "must be a duration"},
                      Bad{"sources:\n  sysfs: maybe\n", "sources.sysfs must be true or false"},
                      Bad{"web: 3\n", "web: must be a mapping"},
                      Bad{"- a\n", "must be a mapping of settings"},
                      Bad{"path:\n  sysfs: [a, b]\n", "sysfs must be a single value"},
                      Bad{"mr:\n  leak-window: forever\n", "mr.leak-window must be a duration"},
                      Bad{"mr:\n  exhaustion-percent: 150\n", "at most 100"},
                      Bad{"mr:\n  leak: yes\n", "unknown setting mr.leak"}));

TEST(DaemonConfig, FileErrorsNameTheFile) {
    const test::TempDir dir("config");
    const std::string path = dir.file("rdmadiag.yml");
    { std::ofstream(path) << "web:\n  nope: 1\n"; }
    DaemonConfig c;
    auto r = apply_config_file(path, c);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, path + ": line 2: unknown setting web.nope");
    { std::ofstream(path) << "log:\n  level: warn\n"; }
    ASSERT_TRUE(apply_config_file(path, c).ok());
    EXPECT_EQ(c.log_level, common::LogLevel::warn);
    EXPECT_EQ(c.config_file, path);
}

sources::SourceRegistry registry() {
    sources::SourceRegistry r;
    auto none = [](const sources::SourceSettings&) -> Result<std::unique_ptr<sources::Source>> {
        return make_error("unused");
    };
    r.add({"sysfs", "sysfs", true, none});
    r.add({"mad", "MADs", false, none});
    r.add({"sim", "simulated fabric", false, none});
    return r;
}

TEST(DaemonConfig, SelectsDefaultSourcesThenSwitches) {
    DaemonConfig c;
    EXPECT_EQ(*runtime::select_sources(registry(), c.collector), std::vector<std::string>{"sysfs"});
    c.collector.source_switches = {{"sysfs", false}, {"mad", true}};
    EXPECT_EQ(*runtime::select_sources(registry(), c.collector), std::vector<std::string>{"mad"});
}

TEST(DaemonConfig, SimulateRunsOnlyTheSimulatedFabricUnlessAskedOtherwise) {
    DaemonConfig c;
    c.collector.simulate = "";
    EXPECT_EQ(*runtime::select_sources(registry(), c.collector), std::vector<std::string>{"sim"});
    c.collector.source_switches = {{"mad", true}};
    EXPECT_EQ(*runtime::select_sources(registry(), c.collector),
              (std::vector<std::string>{"mad", "sim"}));
}

TEST(DaemonConfig, UnknownSourcesAndMissingSimulatorAreErrors) {
    DaemonConfig c;
    c.collector.source_switches = {{"sysf", true}};
    auto r = runtime::select_sources(registry(), c.collector);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "unknown source 'sysf'");
    sources::SourceRegistry empty;
    DaemonConfig s;
    s.collector.simulate = "";
    EXPECT_FALSE(runtime::select_sources(empty, s.collector).ok());
}

}  // namespace
}  // namespace rdmadiag::daemon

namespace rdmadiag::daemon {
namespace {

TEST(DaemonConfig, TheShippedExampleFileLoads) {
    DaemonConfig c;
    auto r = apply_config_file(::rdmadiag::test::source_dir() + "/deploy/systemd/rdmadiag.yml", c);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(c.web.listen_address, ":9857");
    EXPECT_EQ(c.collector.sources.counter_interval, std::chrono::seconds(15));
    EXPECT_EQ(c.collector.source_switches.at("sysfs"), true);
    EXPECT_EQ(c.web.max_pending_connections, 512u);
    EXPECT_EQ(c.collector.sources.extra.at("probe.socket_group"), "rdma");
}

}  // namespace
}  // namespace rdmadiag::daemon
