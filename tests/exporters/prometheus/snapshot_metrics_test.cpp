#include "exporters/prometheus/snapshot_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "tests/exporters/prometheus/exposition.hpp"
#include "tests/exporters/sample_snapshot.hpp"

namespace rdmadiag::prom {
namespace {

using test::Family;
using test::family;
using test::value;

std::vector<Family> metrics_of(const Snapshot& snap, const publish::CollectorStats* stats = nullptr,
                               MetricsDetail detail = MetricsDetail::standard) {
    return test::parse_exposition(snapshot_metrics_text(snap, stats, detail));
}

class SnapshotMetrics : public ::testing::Test {
protected:
    Snapshot snap = testing::sample_snapshot();
    std::vector<Family> fams = metrics_of(snap);
};

TEST_F(SnapshotMetrics, ExporterIdentity) {
    EXPECT_EQ(value(fams, "rdmadiag_snapshot_sequence", {}), 17);
    EXPECT_EQ(value(fams, "rdmadiag_snapshot_timestamp_seconds", {}),
              to_seconds(testing::sample_time().time_since_epoch()));
    EXPECT_EQ(value(fams, "rdmadiag_build_info", {}), 1);
}

TEST_F(SnapshotMetrics, PortsAndDevices) {
    EXPECT_EQ(value(fams, "rdmadiag_port_state", {{"device", "mlx5_0"}, {"port", "1"}}), 4);
    EXPECT_EQ(value(fams, "rdmadiag_port_info", {{"port", "2"}, {"link_layer", "Ethernet"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_port_info", {{"port", "1"}, {"lid", "7"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_port_info", {{"port", "2"}, {"lid", ""}}), 1);
    EXPECT_EQ(
        value(fams, "rdmadiag_device_info",
              {{"device", "mlx5_0"}, {"node_guid", "0x0c42a10300a1b2c3"}, {"transport", "ib"}}),
        1);
    // What repeats another series is left to the full detail.
    EXPECT_FALSE(family(fams, "rdmadiag_port_active"));
    EXPECT_FALSE(family(fams, "rdmadiag_port_lid"));
    auto full = metrics_of(snap, nullptr, MetricsDetail::full);
    EXPECT_EQ(value(full, "rdmadiag_port_active", {{"port", "1"}}), 1);
    EXPECT_EQ(value(full, "rdmadiag_port_active", {{"port", "2"}}), 0);
    EXPECT_EQ(value(full, "rdmadiag_port_lid", {{"port", "1"}}), 7);
    // A port with no LID reading has no LID series, not a zero.
    EXPECT_FALSE(value(full, "rdmadiag_port_lid", {{"port", "2"}}));
}

TEST_F(SnapshotMetrics, DevicesAreNamedByTheirNodeDescription) {
    snap.devices[0].info.node_desc = "node0421 HCA-1";
    fams = metrics_of(snap);
    EXPECT_EQ(value(fams, "rdmadiag_device_info",
                    {{"device", "mlx5_0"}, {"node_desc", "node0421 HCA-1"}}),
              1);
}

TEST_F(SnapshotMetrics, PKeyTablesAndCoherence) {
    std::map<std::string, std::string> dev{{"device", "mlx5_0"}, {"port", "1"}, {"view", "device"}};
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_used", dev), 3);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_table_changes_total", dev), 2);
    EXPECT_FALSE(family(fams, "rdmadiag_pkey_table_generation"));
    EXPECT_FALSE(family(fams, "rdmadiag_pkey_table_unreadable")) << "every entry was read";
    auto full = metrics_of(snap, nullptr, MetricsDetail::full);
    EXPECT_EQ(value(full, "rdmadiag_pkey_table_generation", dev), 3);
    EXPECT_EQ(value(full, "rdmadiag_pkey_table_size", dev), 4);
    EXPECT_FALSE(family(fams, "rdmadiag_pkey_table_size")) << "a capacity, in the JSON API";
    EXPECT_EQ(value(full, "rdmadiag_pkey_table_unreadable", dev), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_view_divergent", {{"port", "1"}, {"view", "sma"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 42);
}

TEST_F(SnapshotMetrics, ACacheThatFollowedTheDeviceIsNotStale) {
    auto& pk = snap.devices[0].ports[0].pkeys;
    pk.views[2].table = pk.views[0].table;
    pk.cache = CacheJudgement::coherent;
    pk.stale_since.reset();
    fams = metrics_of(snap);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 0);
}

TEST_F(SnapshotMetrics, ACacheWithinItsGracePeriodIsNotYetStale) {
    auto& pk = snap.devices[0].ports[0].pkeys;
    pk.cache = CacheJudgement::pending;
    pk.stale_since = snap.time - std::chrono::seconds(2);
    fams = metrics_of(snap);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale", {{"port", "1"}}), 0);
    EXPECT_EQ(value(fams, "rdmadiag_pkey_cache_stale_seconds", {{"port", "1"}}), 2);
}

TEST_F(SnapshotMetrics, AnUnwatchedPortsCacheIsNotJudged) {
    snap.devices[0].ports[0].pkeys.cache = CacheJudgement::not_watched;
    fams = metrics_of(snap);
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
    auto full = metrics_of(snap, nullptr, MetricsDetail::full);
    EXPECT_FALSE(value(full, "rdmadiag_port_stat_saturated", {{"counter", "port_xmit_data"}}));
    EXPECT_EQ(value(fams, "rdmadiag_port_transmitted_bytes_total", {{"port", "1"}}), 4000);
    // The data counters are there in bytes; in their own unit only at full detail.
    EXPECT_FALSE(value(fams, "rdmadiag_port_stat_total", {{"counter", "port_xmit_data"}}));
    EXPECT_EQ(
        value(full, "rdmadiag_port_stat_total", {{"port", "1"}, {"counter", "port_xmit_data"}}),
        1000);
    EXPECT_EQ(family(fams, "rdmadiag_port_stat_total")->type, "counter");
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
    for (const auto& f : metrics_of(snap, nullptr, MetricsDetail::full)) {
        for (const auto& m : f.samples) {
            for (const auto& [name, v] : m.labels) {
                EXPECT_NE(name, "mr") << f.name;
                EXPECT_NE(name, "index") << f.name;
                EXPECT_NE(name, "pkey") << f.name;
            }
        }
    }
}

TEST_F(SnapshotMetrics, PartitionsAreCountsNotSeriesPerPort) {
    EXPECT_FALSE(family(fams, "rdmadiag_partition_members")) << "no model, no partition series";
    // 0x0011: 200 ports, all sma-read; the intent makes them full members, 150 hold it full,
    // 50 limited.
    PartitionModel m;
    Partition p;
    p.pkey = 0x0011;
    p.intended = true;
    for (uint32_t i = 0; i < 200; ++i) {
        EndPort port;
        port.port = PortRef{"guid:0x" + std::to_string(i), 1};
        port.views_read = 1u << static_cast<unsigned>(MemberView::sma);
        m.ports.push_back(port);
        PartitionMember member;
        member.port = i;
        member.holds[static_cast<size_t>(MemberView::intent)] = kHoldsFull;
        member.holds[static_cast<size_t>(MemberView::sma)] = i < 150 ? kHoldsFull : kHoldsLimited;
        p.members.push_back(member);
    }
    p.counts[static_cast<size_t>(MemberView::intent)] = {0, 200, 0};
    p.counts[static_cast<size_t>(MemberView::sma)] = {50, 150, 0};
    m.partitions = {p};
    m.intent = PartitionIntentInfo{};
    m.intent->issues = {{3, true, "skipped"}, {5, false, "a warning"}};
    m.unresolved = {"line 7: no port has GUID 0x0000000000000999"};
    snap.partitions = std::make_shared<const PartitionModel>(m);
    fams = metrics_of(snap);

    const auto* members = family(fams, "rdmadiag_partition_members");
    ASSERT_TRUE(members);
    EXPECT_EQ(members->samples.size(), 6u) << "intent and sma, three memberships each";
    EXPECT_EQ(value(fams, "rdmadiag_partition_members",
                    {{"pkey", "0x0011"}, {"view", "sma"}, {"membership", "full"}}),
              150);
    EXPECT_EQ(value(fams, "rdmadiag_partition_members",
                    {{"pkey", "0x0011"}, {"view", "sma"}, {"membership", "limited"}}),
              50);
    EXPECT_EQ(value(fams, "rdmadiag_partition_members",
                    {{"pkey", "0x0011"}, {"view", "intent"}, {"membership", "both"}}),
              0);
    EXPECT_FALSE(value(fams, "rdmadiag_partition_members", {{"view", "device"}}))
        << "no port was read in that view";
    EXPECT_EQ(value(fams, "rdmadiag_partition_differing_members", {{"pkey", "0x0011"}}), 50);
    EXPECT_EQ(value(fams, "rdmadiag_partition_intent_skipped", {}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_partition_intent_unresolved", {}), 1);
}

TEST_F(SnapshotMetrics, ConsumersAreCountsNeverSeriesPerQpOrCmId) {
    EXPECT_FALSE(family(fams, "rdmadiag_port_consumers")) << "no consumers source, no series";
    // 4,000 QPs of 100 owners (the top 10 named, the rest "other"), 1,000 CM IDs and 64 IPoIB
    // interfaces on one port.
    ConsumerInventory inv;
    inv.device = "mlx5_0";
    inv.complete = false;
    for (uint32_t owner = 0; owner < 11; ++owner) {
        Consumer qps;
        qps.kind = ConsumerKind::qp;
        qps.name = qps.qp_type = "RC";
        qps.port = 1;
        qps.owner = ConsumerOwner{owner < 10 ? std::optional<uint32_t>(owner) : std::nullopt,
                                  owner < 10 ? "app" : "other"};
        qps.count = owner < 10 ? 100 : 3000;
        inv.consumers.push_back(qps);
    }
    for (uint32_t i = 0; i < 1000; ++i) {
        Consumer id;
        id.kind = ConsumerKind::cm_id;
        id.name = "cm_id " + std::to_string(i);
        id.port = 1;
        id.pkey = 0xffff;
        inv.consumers.push_back(id);
    }
    for (uint32_t i = 0; i < 64; ++i) {
        Consumer ipoib;
        ipoib.kind = ConsumerKind::ipoib;
        ipoib.name = "ib0." + std::to_string(0x8001 + i);
        ipoib.port = 1;
        ipoib.pkey = static_cast<uint16_t>(0x8001 + i);
        inv.consumers.push_back(ipoib);
    }
    HostConsumers host;
    host.devices = {inv};
    host.read = {snap.time};
    snap.consumers = std::make_shared<const HostConsumers>(host);
    fams = metrics_of(snap);
    const auto* counts = family(fams, "rdmadiag_port_consumers");
    ASSERT_TRUE(counts);
    EXPECT_EQ(counts->samples.size(), 66u) << "QPs, CM IDs of one key, 64 IPoIB keys";
    EXPECT_EQ(value(fams, "rdmadiag_port_consumers",
                    {{"device", "mlx5_0"}, {"port", "1"}, {"pkey", "none"}, {"kind", "qp"}}),
              4000);
    EXPECT_EQ(value(fams, "rdmadiag_port_consumers",
                    {{"device", "mlx5_0"}, {"port", "1"}, {"pkey", "0xffff"}, {"kind", "cm_id"}}),
              1000);
    EXPECT_EQ(value(fams, "rdmadiag_port_consumers", {{"pkey", "0x8001"}, {"kind", "ipoib"}}), 1);
    EXPECT_EQ(value(fams, "rdmadiag_consumers_listing_complete", {{"device", "mlx5_0"}}), 0);
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
    auto with = metrics_of(snap, &stats);
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
    auto with = metrics_of(snap, &stats);
    EXPECT_EQ(value(with, "rdmadiag_mad_sweep_mads_sent_total", {{"source", "mad"}}), 120);
    EXPECT_EQ(family(with, "rdmadiag_mad_sweep_mads_sent_total")->type, "counter");
    EXPECT_EQ(value(with, "rdmadiag_mad_sweep_last_duration_seconds", {{"source", "mad"}}), 0.5);
}

TEST_F(SnapshotMetrics, NodesOfAMadSweepSayWhetherTheyAnswered) {
    EXPECT_FALSE(family(fams, "rdmadiag_device_reachable")) << "sysfs devices are not swept";
    snap.devices[0].info.reachable = false;
    snap.devices[0].info.unreachable_kind = "no_answer";
    auto swept = metrics_of(snap);
    EXPECT_EQ(
        value(swept, "rdmadiag_device_reachable", {{"device", "mlx5_0"}, {"reason", "no_answer"}}),
        0);
}

TEST(SnapshotMetricsEmpty, AnEmptySnapshotHasOnlyTheExportersOwnMetrics) {
    auto fams = metrics_of(Snapshot{});
    std::vector<std::string> names;
    for (const auto& f : fams) names.push_back(f.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"rdmadiag_build_info", "rdmadiag_snapshot_sequence"}));
}

TEST(SnapshotMetricsText, WritesTheTextFormat) {
    auto text = snapshot_metrics_text(testing::sample_snapshot());
    EXPECT_NE(text.find("# TYPE rdmadiag_port_stat_total counter\n"), std::string::npos);
    EXPECT_NE(text.find("rdmadiag_pkey_cache_stale{device=\"mlx5_0\",port=\"1\"} 1\n"),
              std::string::npos);
    EXPECT_NE(text.find("rdmadiag_snapshot_sequence 17\n"), std::string::npos);
}

TEST(SnapshotMetricsText, ResetAndSaturationDetailOnlyWhereNotZero) {
    Snapshot snap = testing::sample_snapshot();
    auto fams = metrics_of(snap);
    for (const auto* name : {"rdmadiag_port_stat_resets_total", "rdmadiag_port_stat_saturated"}) {
        const auto* f = family(fams, name);
        ASSERT_TRUE(f) << name;
        for (const auto& s : f->samples) EXPECT_NE(s.value, 0) << name;
        // At full detail every narrow counter has both.
        const auto full = metrics_of(snap, nullptr, MetricsDetail::full);
        const auto* all = family(full, name);
        ASSERT_TRUE(all);
        EXPECT_GT(all->samples.size(), f->samples.size()) << name;
    }
}

class StringsOf final : public TextSink {
public:
    void write(std::string_view text) override { parts.emplace_back(text); }
    std::vector<std::string> parts;
};

TEST(MetricWriter, WritesAFamilyOnlyWithItsFirstSample) {
    StringsOf out;
    MetricWriter w(out);
    w.begin("rdmadiag_empty", "never filled", MetricType::gauge);
    w.begin("rdmadiag_a", "a \\ b\nc", MetricType::gauge);
    w.sample({{"x", "1"}}, 1);
    w.sample({{"x", "q\"\\\n"}}, 0.5);
    w.single("rdmadiag_b_total", "b", MetricType::counter, {}, 3e20);
    std::string all;
    for (const auto& p : out.parts) all += p;
    EXPECT_EQ(all,
              "# HELP rdmadiag_a a \\\\ b\\nc\n# TYPE rdmadiag_a gauge\n"
              "rdmadiag_a{x=\"1\"} 1\n"
              "rdmadiag_a{x=\"q\\\"\\\\\\n\"} 0.5\n"
              "# HELP rdmadiag_b_total b\n# TYPE rdmadiag_b_total counter\n"
              "rdmadiag_b_total 3e+20\n");
    EXPECT_EQ(w.samples(), 3u);
    auto fams = test::parse_exposition(all);
    ASSERT_EQ(fams.size(), 2u);
    EXPECT_EQ(fams[0].samples[1].labels.at("x"), "q\"\\\n");
}

TEST(MetricWriter, ValuesAsPrometheusReadsThem) {
    auto text = [](double v) {
        std::string s;
        append_value(s, v);
        return s;
    };
    EXPECT_EQ(text(1796212800), "1796212800");
    EXPECT_EQ(text(1000000), "1000000");
    EXPECT_EQ(text(0.003), "0.003");
    EXPECT_EQ(text(-2), "-2");
    EXPECT_EQ(text(18446744073709551615.0), "18446744073709551616");  // 2^64, exactly
    EXPECT_EQ(text(1.5e300), "1.5e+300");
    EXPECT_EQ(text(std::nan("")), "NaN");
    EXPECT_EQ(text(std::numeric_limits<double>::infinity()), "+Inf");
    EXPECT_EQ(text(-std::numeric_limits<double>::infinity()), "-Inf");
}

}  // namespace
}  // namespace rdmadiag::prom
