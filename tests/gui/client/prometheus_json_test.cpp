#include "gui/client/prometheus_json.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::gui::client {
namespace {

// Canned answers as Prometheus 2.x writes them for the fleet view's three queries.
constexpr std::string_view kFindings =
    R"({"status":"success","data":{"resultType":"vector","result":[
 {"metric":{"__name__":"rdmadiag_findings","device":"mlx5_0","instance":"127.0.0.1:9001","job":"rdmadiag","port":"1","rule":"pkey.cache_stale","severity":"warning"},"value":[1764669600.1,"1"]},
 {"metric":{"__name__":"rdmadiag_findings","device":"mlx5_0","instance":"127.0.0.1:9001","job":"rdmadiag","port":"","rule":"mr.needs_dereg","severity":"critical"},"value":[1764669600.1,"2"]},
 {"metric":{"__name__":"rdmadiag_findings","device":"mlx5_1","instance":"127.0.0.1:9002","job":"rdmadiag","port":"1","rule":"pkey.removed","severity":"info"},"value":[1764669600.1,"0"]}]}})";
constexpr std::string_view kSourcesUp =
    R"({"status":"success","data":{"resultType":"vector","result":[
 {"metric":{"__name__":"rdmadiag_source_up","instance":"127.0.0.1:9001","job":"rdmadiag","source":"sim"},"value":[1764669600.1,"1"]},
 {"metric":{"__name__":"rdmadiag_source_up","instance":"127.0.0.1:9002","job":"rdmadiag","source":"sim"},"value":[1764669600.1,"1"]},
 {"metric":{"__name__":"rdmadiag_source_up","instance":"127.0.0.1:9002","job":"rdmadiag","source":"sysfs"},"value":[1764669600.1,"0"]}]}})";
constexpr std::string_view kUp = R"({"status":"success","data":{"resultType":"vector","result":[
 {"metric":{"__name__":"up","instance":"127.0.0.1:9001","job":"rdmadiag"},"value":[1764669600.1,"1"]},
 {"metric":{"__name__":"up","instance":"127.0.0.1:9002","job":"rdmadiag"},"value":[1764669600.1,"1"]},
 {"metric":{"__name__":"up","instance":"127.0.0.1:9003","job":"rdmadiag"},"value":[1764669600.1,"0"]},
 {"metric":{"__name__":"up","instance":"127.0.0.1:9090","job":"prometheus"},"value":[1764669600.1,"1"]}]}})";

TEST(PrometheusJson, ReadsAnInstantVector) {
    auto v = parse_prom_vector(kUp);
    ASSERT_TRUE(v.ok()) << v.error().message;
    ASSERT_EQ(v->size(), 4u);
    EXPECT_EQ(v->at(2).labels.at("instance"), "127.0.0.1:9003");
    EXPECT_EQ(v->at(2).value, 0.0);
    EXPECT_EQ(v->at(0).value, 1.0);
}

TEST(PrometheusJson, SaysWhyAnAnswerIsNoVector) {
    auto e = parse_prom_vector(
        R"({"status":"error","errorType":"bad_data","error":"parse error at char 5"})");
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("parse error at char 5"), std::string::npos);
    EXPECT_FALSE(parse_prom_vector("<html>").ok());
    EXPECT_FALSE(
        parse_prom_vector(R"({"status":"success","data":{"resultType":"matrix","result":[]}})")
            .ok());
}

TEST(PrometheusJson, HostsOfRdmadiagJobsWithTheirFindingsAndHealth) {
    const auto state = make_fleet_state(*parse_prom_vector(kFindings),
                                        *parse_prom_vector(kSourcesUp), *parse_prom_vector(kUp));
    // Prometheus scraping itself is no rdmadiag host; the daemon whose scrape fails is.
    ASSERT_EQ(state.hosts.size(), 3u);
    const auto& a = state.hosts[0];
    EXPECT_EQ(a.instance, "127.0.0.1:9001");
    EXPECT_EQ(a.up, true);
    ASSERT_EQ(a.findings.size(), 2u);
    EXPECT_EQ(a.findings[0].rule, "mr.needs_dereg");  // most severe first
    EXPECT_EQ(a.findings[0].count, 2);
    EXPECT_FALSE(a.findings[0].port.has_value());
    EXPECT_EQ(a.findings[1].port, 1u);
    const auto& b = state.hosts[1];
    EXPECT_TRUE(b.findings.empty());  // its one series is a cleared rule (0)
    ASSERT_EQ(b.sources.size(), 2u);
    EXPECT_FALSE(b.sources[1].up);
    const auto& c = state.hosts[2];
    EXPECT_EQ(c.instance, "127.0.0.1:9003");
    EXPECT_EQ(c.up, false);
}

}  // namespace
}  // namespace rdmadiag::gui::client
