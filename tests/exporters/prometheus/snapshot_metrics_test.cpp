#include "exporters/prometheus/snapshot_metrics.hpp"

#include <gtest/gtest.h>

#include <map>

#include "exporters/prometheus/snapshot_collectable.hpp"
#include "tests/exporters/sample_snapshot.hpp"

namespace rdmadiag::prom {
namespace {

using prometheus::MetricFamily;
using prometheus::MetricType;

const MetricFamily* family(const std::vector<MetricFamily>& fams, const std::string& name) {
    for (const auto& f : fams) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

std::string label(const prometheus::ClientMetric& m, const std::string& name) {
    for (const auto& l : m.label) {
        if (l.name == name) return l.value;
    }
    return "<none>";
}

// The value of the one sample of `name` whose labels include all of `want`.
std::optional<double> value(const std::vector<MetricFamily>& fams, const std::string& name,
                            std::map<std::string, std::string> want) {
    const auto* f = family(fams, name);
    if (!f) return std::nullopt;
    std::optional<double> found;
    for (const auto& m : f->metric) {
        bool match = true;
        for (const auto& [k, v] : want) match = match && label(m, k) == v;
        if (!match) continue;
        EXPECT_FALSE(found) << name << " matched twice";
        found = f->type == MetricType::Counter ? m.counter.value : m.gauge.value;
    }
    return found;
}

class SnapshotMetrics : public ::testing::Test {
protected:
    Snapshot snap = testing::sample_snapshot();
    std::vector<MetricFamily> fams = snapshot_metrics(snap);
};

TEST_F(SnapshotMetrics, ExporterIdentity) {
    EXPECT_EQ(value(fams, "rdmadiag_snapshot_sequence", {}), 17);
    EXPECT_EQ(value(fams, "rdmadiag_snapshot_timestamp_seconds", {}),
              to_seconds(testing::sample_time().time_since_epoch()));
    EXPECT_EQ(value(fams, "rdmadiag_build_info", {}), 1);
}

TEST_F(SnapshotMetrics, PortsAndDevices) {
    EXPECT_EQ(value(fams, "rdmadiag_port_state", {{"device", "mlx5_0"}, {"port", "1"}}), 4);
    EXPECT_EQ(value(fams, "rdmadiag_port_active", {{"port", "1"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_port_active", {{"port", "2"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_port_lid", {{"port", "1"}}), 7);
    EXPECT_EQ(value(fams, "rdmadiag_port_info", {{"port", "2"}, {"link_layer", "Ethernet"}}), 1);
    EXPECT_EQ(
        value(fams, "rdmadiag_device_info",
              {{"device", "mlx5_0"}, {"node_guid", "0x0c42a10300a1b2c3"}, {"transport", "ib"}}),
        1);
    // A port with no LID reading has no LID series, not a zero.
    EXPECT_FALSE(value(fams, "rdmadiag_port_lid", {{"port", "2"}}));
}

TEST_F(SnapshotMetrics, PKeyTablesAndCoherence) {
    std::map<std::string, std::string> dev{{"device", "mlx5_0"}, {"port", "1"}, {"view", "device"}};
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_size", dev), 4);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_used", dev), 3);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_generation", dev), 3);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_changes_total", dev), 2);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_view_divergent", {{"port", "1"}, {"view", "sma"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 42);
}

TEST_F(SnapshotMetrics, ACacheThatFollowedTheDeviceIsNotStale) {
    auto& pk = snap.devices[0].ports[0].pkeys;
    pk.views[2].table = pk.views[0].table;
    pk.cache = CacheJudgement::coherent;
    pk.stale_since.reset();
    fams = snapshot_metrics(snap);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 0);
}

TEST_F(SnapshotMetrics, ACacheWithinItsGracePeriodIsNotYetStale) {
    auto& pk = snap.devices[0].ports[0].pkeys;
    pk.cache = CacheJudgement::pending;
    pk.stale_since = snap.time - std::chrono::seconds(2);
    fams = snapshot_metrics(snap);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 2);
}

TEST_F(SnapshotMetrics, AnUnwatchedPortsCacheIsNotJudged) {
    snap.devices[0].ports[0].pkeys.cache = CacheJudgement::not_watched;
    fams = snapshot_metrics(snap);
    EXPECT_FALSE(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}).has_value());
    EXPECT_FALSE(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}).has_value());
}

TEST_F(SnapshotMetrics, CountersAreMonotonicTotalsWithSaturationFlags) {
    std::map<std::string, std::string> rcv{
        {"port", "1"}, {"counter", "port_rcv_constraint_errors"}, {"kind", "pma"}};
    EXPECT_EQ(value(fams, "rdmadiag_port_stat_total", rcv), 300);
    EXPECT_EQ(value(fams, "rdmadiag_port_stat_saturated", rcv), 1);
    EXPECT_EQ(value(fams, "rdmadiag_port_stat_resets_total", rcv), 1);
    EXPECT_EQ(value(fams, "rdmadiag_port_stat_total",
                    {{"counter", "p_key_violations"}, {"kind", "portinfo"}}),
              4);
    // 64-bit counters cannot saturate in practice: no flag series.
    EXPECT_FALSE(value(fams, "rdmadiag_port_stat_saturated", {{"counter", "port_xmit_data"}}));
    EXPECT_EQ(value(fams, "rdmadiag_port_transmitted_bytes_total", {{"port", "1"}}), 4000);
    EXPECT_EQ(family(fams, "rdmadiag_port_stat_total")->type, MetricType::Counter);
}

TEST_F(SnapshotMetrics, EventsFindingsAndMrs) {
    EXPECT_EQ(value(fams, "rdmadiag_async_events_total", {{"port", "1"}, {"type", "PKEY_CHANGE"}}),
              2);
    EXPECT_EQ(value(fams, "rdmadiag_async_events_total", {{"port", ""}, {"type", "DEVICE_FATAL"}}),
              1);
    EXPECT_EQ(value(fams, "rdmadiag_findings",
                    {{"rule", "pkey.cache_stale"}, {"severity", "warning"}, {"port", "1"}}),
              1);
    EXPECT_EQ(value(fams, "rdmadiag_findings", {{"rule", "mr.needs_dereg"}, {"port", ""}}), 1);
    // A cleared rule stays at 0 so alerts resolve instead of going absent.
    EXPECT_EQ(value(fams, "rdmadiag_findings", {{"rule", "pkey.flapping"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_mrs", {{"state", "stuck"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_mrs", {{"state", "valid"}}), 2);
    EXPECT_EQ(value(fams, "rdmadiag_mrs", {{"state", "unknown"}}), 0);
}

TEST_F(SnapshotMetrics, NoSeriesPerMrOrPerPKeyEntry) {
    for (const auto& f : fams) {
        for (const auto& m : f.metric) {
            for (const auto& l : m.label) {
                EXPECT_NE(l.name, "mr") << f.name;
                EXPECT_NE(l.name, "index") << f.name;
                EXPECT_NE(l.name, "pkey") << f.name;
            }
        }
    }
}

TEST_F(SnapshotMetrics, SourcesUpWithTimings) {
    EXPECT_EQ(value(fams, "rdmadiag_source_up", {{"source", "sysfs"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_source_up", {{"source", "tracefs"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_source_errors_total", {{"source", "sysfs"}}), 2);
    EXPECT_FALSE(
        value(fams, "rdmadiag_source_last_observation_timestamp_seconds", {{"source", "tracefs"}}));
    publish::CollectorStats stats;
    publish::SourceTiming t;
    t.name = "sysfs";
    t.polled = true;
    t.polls = 10;
    t.last_duration = std::chrono::milliseconds(3);
    t.total_duration = std::chrono::milliseconds(25);
    stats.sources.push_back(t);
    auto with = snapshot_metrics(snap, &stats);
    EXPECT_EQ(value(with, "rdmadiag_source_polls_total", {{"source", "sysfs"}}), 10);
    EXPECT_DOUBLE_EQ(
        *value(with, "rdmadiag_source_last_poll_duration_seconds", {{"source", "sysfs"}}), 0.003);
    EXPECT_DOUBLE_EQ(*value(with, "rdmadiag_source_poll_seconds_total", {{"source", "sysfs"}}),
                     0.025);
}

TEST_F(SnapshotMetrics, ASourcesOwnFiguresAreItsMetrics) {
    publish::CollectorStats stats;
    publish::SourceTiming t;
    t.name = "mad";
    t.figures = {
        {"mad_sweep_mads_sent_total", "MADs sent.", common::Figure::Kind::counter, 120},
        {"mad_sweep_last_duration_seconds", "Last sweep.", common::Figure::Kind::gauge, 0.5}};
    stats.sources.push_back(t);
    auto with = snapshot_metrics(snap, &stats);
    EXPECT_EQ(value(with, "rdmadiag_mad_sweep_mads_sent_total", {{"source", "mad"}}), 120);
    EXPECT_EQ(family(with, "rdmadiag_mad_sweep_mads_sent_total")->type, MetricType::Counter);
    EXPECT_EQ(value(with, "rdmadiag_mad_sweep_last_duration_seconds", {{"source", "mad"}}), 0.5);
}

TEST_F(SnapshotMetrics, NodesOfAMadSweepSayWhetherTheyAnswered) {
    EXPECT_FALSE(family(fams, "rdmadiag_device_reachable")) << "sysfs devices are not swept";
    snap.devices[0].info.reachable = false;
    snap.devices[0].info.unreachable_kind = "no_answer";
    auto swept = snapshot_metrics(snap);
    EXPECT_EQ(
        value(swept, "rdmadiag_device_reachable", {{"device", "mlx5_0"}, {"reason", "no_answer"}}),
        0);
}

TEST(SnapshotMetricsEmpty, AnEmptySnapshotHasOnlyTheExportersOwnMetrics) {
    auto fams = snapshot_metrics(Snapshot{});
    std::vector<std::string> names;
    for (const auto& f : fams) names.push_back(f.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"rdmadiag_build_info", "rdmadiag_snapshot_sequence"}));
}

TEST(SnapshotCollectable, SerializesTheLatestSnapshotInTextFormat) {
    publish::SnapshotStore store;
    SnapshotCollectable c(store);
    store.publish(std::make_shared<Snapshot>(testing::sample_snapshot()));
    auto text = serialize_metrics(c);
    EXPECT_NE(text.find("# TYPE rdmadiag_port_stat_total counter\n"), std::string::npos);
    EXPECT_NE(text.find("rdmadiag_pkey_cache_stale{device=\"mlx5_0\",port=\"1\"} 1\n"),
              std::string::npos);
    EXPECT_NE(text.find("rdmadiag_snapshot_sequence 17\n"), std::string::npos);
}

TEST(MetricWriter, DeclaresFamiliesOnceAndDropsEmptyOnes) {
    MetricWriter w;
    w.family("rdmadiag_empty", "never filled", prometheus::MetricType::Gauge);
    w.gauge("rdmadiag_a", "a", {{"x", "1"}}, 1);
    w.gauge("rdmadiag_a", "a", {{"x", "2"}}, 2);
    w.counter("rdmadiag_b_total", "b", {}, 3);
    auto fams = w.take();
    ASSERT_EQ(fams.size(), 2u);
    EXPECT_EQ(fams[0].name, "rdmadiag_a");
    EXPECT_EQ(fams[0].metric.size(), 2u);
    EXPECT_EQ(fams[1].type, prometheus::MetricType::Counter);
    EXPECT_TRUE(w.take().empty());
}

}  // namespace
}  // namespace rdmadiag::prom
