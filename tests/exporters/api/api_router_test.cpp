#include "exporters/api/api_router.hpp"

#include <gtest/gtest.h>

#include "collector/json/checked_json.hpp"

#include "collector/json/partitions_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "exporters/api/gzip_encoding.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/exporters/api/gunzip.hpp"
#include "tests/exporters/sample_snapshot.hpp"

namespace rdmadiag::api {
namespace {

using json = codec::Json;

class ApiRouterTest : public ::testing::Test {
protected:
    ApiRouterTest() { store.publish(std::make_shared<Snapshot>(testing::sample_snapshot())); }

    HttpResponse get(const std::string& path, const std::string& query = "",
                     const std::string& method = "GET") {
        HttpRequest r;
        r.method = method;
        r.path = path;
        r.query = query;
        return router.handle(r);
    }
    json get_json(const std::string& path, const std::string& query = "") {
        auto r = get(path, query);
        EXPECT_EQ(r.status, 200) << path << " " << r.body;
        EXPECT_EQ(r.content_type, "application/json");
        return json::parse(r.body);
    }

    publish::SnapshotStore store;
    ApiRouter router{store};
};

TEST_F(ApiRouterTest, MetricsInTheTextFormat) {
    auto r = get("/metrics");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_NE(r.payload().find("rdmadiag_snapshot_sequence 17"), std::string::npos);
}

// A path's bytes are whatever the client percent-encoded: an unknown one that is not UTF-8 is
// still a 404 with a JSON body, not an exception (a 500) while writing the error.
TEST_F(ApiRouterTest, UnknownPathThatIsNotUtf8IsANotFound) {
    auto r = get("/api/v1/\xce\xf2");
    EXPECT_EQ(r.status, 404);
    auto body = json::parse(r.body);
    EXPECT_EQ(body["status"], 404);
    EXPECT_NE(body["error"].get<std::string>().find("no such route: /api/v1/"), std::string::npos);
}

TEST_F(ApiRouterTest, MetricsFollowEachNewSnapshot) {
    auto first = get("/metrics").shared_body;
    ASSERT_TRUE(first);
    EXPECT_EQ(*get("/metrics").shared_body, *first);
    auto next = std::make_shared<Snapshot>(testing::sample_snapshot());
    next->sequence = 18;
    store.publish(next);
    auto second = get("/metrics").shared_body;
    EXPECT_NE(second->find("rdmadiag_snapshot_sequence 18"), std::string::npos);
    publish::CollectorStats stats;
    stats.sources.push_back(publish::SourceTiming{"sysfs", true, 3, 0, {}, {}, 0});
    store.publish_stats(stats);
    EXPECT_NE(get("/metrics").payload().find("rdmadiag_source_polls_total{source=\"sysfs\"} 3"),
              std::string::npos);
}

HttpRequest gzip_get(const std::string& path) {
    HttpRequest r;
    r.method = "GET";
    r.path = path;
    r.headers["accept-encoding"] = "gzip";
    return r;
}

bool says_gzip(const HttpResponse& r) {
    return std::find(r.headers.begin(), r.headers.end(),
                     std::pair<std::string, std::string>{"Content-Encoding", "gzip"}) !=
           r.headers.end();
}

TEST_F(ApiRouterTest, GzippedMetricsAreCachedPerSnapshotLikeTheText) {
    auto plain = get("/metrics");
    auto zipped = router.handle(gzip_get("/metrics"));
    EXPECT_TRUE(says_gzip(zipped));
    EXPECT_FALSE(says_gzip(plain));
    ASSERT_TRUE(zipped.shared_body);
    EXPECT_EQ(testing::gunzip(*zipped.shared_body), *plain.shared_body);
    // A scrape between two rounds compresses nothing: it gets the same compressed text.
    EXPECT_EQ(router.handle(gzip_get("/metrics")).shared_body, zipped.shared_body);
    auto next = std::make_shared<Snapshot>(testing::sample_snapshot());
    next->sequence = 18;
    store.publish(next);
    auto fresh = router.handle(gzip_get("/metrics"));
    EXPECT_NE(fresh.shared_body, zipped.shared_body);
    EXPECT_NE(
        testing::gunzip(*fresh.shared_body).value_or("").find("rdmadiag_snapshot_sequence 18"),
        std::string::npos);
    // The plain text of the new snapshot is the one the compressed form was made from.
    EXPECT_EQ(testing::gunzip(*fresh.shared_body), *get("/metrics").shared_body);
}

TEST_F(ApiRouterTest, MetricsDetailChangesTheNextScrape) {
    const std::string standard(get("/metrics").payload());
    auto zipped = router.handle(gzip_get("/metrics")).shared_body;
    EXPECT_EQ(standard.find("rdmadiag_port_active{"), std::string::npos);
    router.set_metrics_detail(prom::MetricsDetail::full);
    const std::string full_text(get("/metrics").payload());
    EXPECT_NE(full_text.find("rdmadiag_port_active{"), std::string::npos);
    auto full = router.handle(gzip_get("/metrics")).shared_body;
    ASSERT_TRUE(full);
    EXPECT_NE(full, zipped);
    EXPECT_NE(testing::gunzip(*full).value_or("").find("rdmadiag_port_active{"), std::string::npos);
}

TEST_F(ApiRouterTest, EveryRouteSaysItsAnswerVariesWithAcceptEncoding) {
    for (const auto& path : ApiRouter::routes()) {
        for (const auto& r : {get(path), router.handle(gzip_get(path))}) {
            EXPECT_NE(std::find(r.headers.begin(), r.headers.end(),
                                std::pair<std::string, std::string>{"Vary", "Accept-Encoding"}),
                      r.headers.end())
                << path;
        }
        auto z = router.handle(gzip_get(path));
        if (says_gzip(z)) {
            EXPECT_EQ(testing::gunzip(z.payload()).value_or("not gzip"), get(path).payload())
                << path;
        } else {
            EXPECT_LT(z.payload().size(), kMinGzipBytes) << path;
        }
    }
}

TEST_F(ApiRouterTest, HealthzIsOkOnceASnapshotIsPublished) {
    auto j = get_json("/healthz");
    EXPECT_EQ(j["status"], "ok");
    EXPECT_EQ(j["sequence"], 17);
    publish::SnapshotStore empty;
    ApiRouter fresh(empty);
    HttpRequest r{"GET", "/healthz", "", {}, -1, false};
    auto resp = fresh.handle(r);
    EXPECT_EQ(resp.status, 503);
    EXPECT_EQ(json::parse(resp.body)["status"], "starting");
}

TEST_F(ApiRouterTest, SnapshotRoundTripsThroughTheSnapshotJson) {
    auto r = get("/api/v1/snapshot");
    ASSERT_EQ(r.status, 200);
    auto back = codec::parse_snapshot_json(r.body);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->sequence, 17u);
    EXPECT_EQ(back->devices, testing::sample_snapshot().devices);
    EXPECT_EQ(back->findings, testing::sample_snapshot().findings);
}

TEST_F(ApiRouterTest, Status) {
    auto j = get_json("/api/v1/status");
    EXPECT_EQ(j["sequence"], 17);
    EXPECT_EQ(j["ports"], 2);
    EXPECT_EQ(j["ports_active"], 1);
    EXPECT_EQ(j["findings"]["critical"], 1);
    EXPECT_EQ(j["findings"]["warning"], 1);
    EXPECT_EQ(j["mrs"]["stuck"], 1);
    ASSERT_EQ(j["sources"].size(), 2u);
    EXPECT_EQ(j["sources"][1]["reason"], "tracefs is not mounted");
}

TEST_F(ApiRouterTest, PortsWithFilters) {
    EXPECT_EQ(get_json("/api/v1/ports")["ports"].size(), 2u);
    auto one = get_json("/api/v1/ports", "device=mlx5_0&port=2")["ports"];
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0]["state"], "DOWN");
    EXPECT_EQ(get_json("/api/v1/ports", "device=mlx5_9")["ports"].size(), 0u);
}

TEST_F(ApiRouterTest, PKeysShowGenerationsAndWhereViewsDiffer) {
    auto ports = get_json("/api/v1/pkeys", "port=1")["ports"];
    ASSERT_EQ(ports.size(), 1u);
    auto views = ports[0]["views"];
    ASSERT_EQ(views.size(), 3u);
    EXPECT_EQ(views[0]["view"], "device");
    EXPECT_EQ(views[0]["generation"], 3);
    EXPECT_FALSE(views[0].contains("differs_from_device"));
    EXPECT_EQ(views[1]["differs_from_device"].size(), 0u);  // sma agrees
    auto diff = views[2]["differs_from_device"];
    ASSERT_EQ(diff.size(), 2u);
    EXPECT_EQ(diff[0], (json{{"index", 2}, {"device", "0x0000"}, {"view", "0x8002"}}));
    EXPECT_EQ(diff[1], (json{{"index", 3}, {"device", "0x8002"}, {"view", "0x0000"}}));
}

TEST_F(ApiRouterTest, Counters) {
    auto ports = get_json("/api/v1/counters", "device=mlx5_0&port=1")["ports"];
    ASSERT_EQ(ports.size(), 1u);
    ASSERT_EQ(ports[0]["counters"].size(), 3u);
    EXPECT_EQ(ports[0]["counters"][0]["name"], "port_rcv_constraint_errors");
}

TEST_F(ApiRouterTest, FindingsWithHistory) {
    auto j = get_json("/api/v1/findings");
    ASSERT_EQ(j["active"].size(), 2u);
    EXPECT_EQ(j["active"][0]["rule"], "mr.needs_dereg");
    ASSERT_EQ(j["history"].size(), 1u);
    EXPECT_EQ(j["history"][0]["rule"], "pkey.flapping");
}

TEST_F(ApiRouterTest, EventsWithTotals) {
    auto j = get_json("/api/v1/events");
    ASSERT_EQ(j["events"].size(), 1u);
    ASSERT_EQ(j["totals"].size(), 2u);
    auto port2 = get_json("/api/v1/events", "port=2");
    EXPECT_EQ(port2["events"].size(), 0u);
    EXPECT_EQ(port2["totals"].size(), 0u);
}

TEST_F(ApiRouterTest, MrsFilteredByState) {
    EXPECT_EQ(get_json("/api/v1/mrs")["mrs"].size(), 3u);
    auto stuck = get_json("/api/v1/mrs", "state=stuck")["mrs"];
    ASSERT_EQ(stuck.size(), 1u);
    EXPECT_EQ(stuck[0]["mr"], 17);
}

// A partition model as the engine leaves it in a snapshot: one member port of 0x0011 that holds it
// limited where partitions.conf says full, and a line of the file that was skipped.
std::shared_ptr<const PartitionModel> storage_model() {
    PartitionModel m;
    EndPort port;
    port.port = PortRef{"mlx5_0", 1};
    port.guid = 0x0c42a10300a1b2c3;
    port.node_name = "node01 HCA-1";
    port.views_read = 1u << static_cast<unsigned>(MemberView::sma);
    m.ports = {port};
    Partition p;
    p.pkey = 0x0011;
    p.name = "Storage";
    p.intended = true;
    PartitionMember member;
    member.holds[static_cast<size_t>(MemberView::intent)] = kHoldsFull;
    member.holds[static_cast<size_t>(MemberView::sma)] = kHoldsLimited;
    p.members = {member};
    p.counts[static_cast<size_t>(MemberView::intent)][1] = 1;
    p.counts[static_cast<size_t>(MemberView::sma)][0] = 1;
    m.partitions = {p};
    m.intent = PartitionIntentInfo{"/etc/opensm/partitions.conf",
                                   std::nullopt,
                                   testing::sample_time(),
                                   {{4, true, "bad port GUID 'x'"}},
                                   false};
    return std::make_shared<const PartitionModel>(std::move(m));
}

TEST_F(ApiRouterTest, PartitionsAsThePartitionsCommandWritesThem) {
    auto none = get_json("/api/v1/partitions");
    EXPECT_EQ(none["partitions"], json::array()) << "no model yet: no partitions, not an error";
    EXPECT_EQ(none["intent"], false);

    auto snap = std::make_shared<Snapshot>(testing::sample_snapshot());
    snap->partitions = storage_model();
    store.publish(snap);
    auto all = get_json("/api/v1/partitions");
    EXPECT_EQ(all["sequence"], 17);
    ASSERT_EQ(all["partitions"].size(), 1u);
    EXPECT_EQ(all["partitions"][0]["pkey"], "0x0011");
    EXPECT_EQ(all["partitions"][0]["differences"], 1);
    EXPECT_FALSE(all["partitions"][0].contains("members")) << "members only for one partition";
    EXPECT_EQ(all["intent_file"]["path"], "/etc/opensm/partitions.conf");
    EXPECT_EQ(all["intent_file"]["issues"][0]["line"], 4);

    auto one = get_json("/api/v1/partitions", "pkey=0x8011");
    ASSERT_EQ(one["partitions"].size(), 1u);
    ASSERT_EQ(one["partitions"][0]["members"].size(), 1u);
    EXPECT_EQ(one["partitions"][0]["members"][0]["difference"], "mismatch");
    // The same document `rdmadiag partitions 0x8011 --json` prints, under the API's header.
    const json cli = codec::partitions_to_json(*snap->partitions, 0x8011);
    for (const auto& [key, value] : cli.items()) EXPECT_EQ(one[key], value) << key;

    auto unknown = get("/api/v1/partitions", "pkey=0x4242");
    EXPECT_EQ(unknown.status, 404);
    EXPECT_NE(unknown.body.find("no partition 0x4242"), std::string::npos);
    auto bad = get("/api/v1/partitions", "pkey=storage");
    EXPECT_EQ(bad.status, 400);
    EXPECT_NE(bad.body.find("pkey"), std::string::npos);
}

TEST_F(ApiRouterTest, EveryRouteAnswersGetAndHead) {
    for (const auto& path : ApiRouter::routes()) {
        auto g = get(path);
        EXPECT_EQ(g.status, 200) << path;
        EXPECT_FALSE(g.payload().empty()) << path;
        auto h = get(path, "", "HEAD");
        EXPECT_EQ(h.status, 200) << path;
    }
}

TEST_F(ApiRouterTest, UnknownRoutesAre404) {
    for (std::string path :
         {"/", "/index.html", "/api/v1", "/api/v1/", "/api/v2/status", "/metrics/",
          "/api/v1/snapshot/../status", "/../etc/passwd", "/api/v1/status.cgi"}) {
        auto r = get(path);
        EXPECT_EQ(r.status, 404) << path;
        EXPECT_EQ(json::parse(r.body)["status"], 404);
    }
}

TEST_F(ApiRouterTest, OtherMethodsAre405WithAllow) {
    for (std::string m : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"}) {
        auto r = get("/metrics", "", m);
        EXPECT_EQ(r.status, 405) << m;
        ASSERT_GE(r.headers.size(), 1u);
        EXPECT_EQ(r.headers[0], (std::pair<std::string, std::string>{"Allow", "GET, HEAD"}));
    }
}

TEST_F(ApiRouterTest, RequestBodiesAreRefused) {
    HttpRequest r{"GET", "/api/v1/status", "", {}, 10, false};
    EXPECT_EQ(router.handle(r).status, 413);
    HttpRequest chunked{"GET", "/metrics", "", {}, -1, true};
    EXPECT_EQ(router.handle(chunked).status, 413);
    HttpRequest empty{"GET", "/metrics", "", {}, 0, false};
    EXPECT_EQ(router.handle(empty).status, 200);
}

TEST_F(ApiRouterTest, BadFiltersAre400) {
    for (std::string q : {"port=one", "port=-1", "port=1x", "port=99999999999"}) {
        auto r = get("/api/v1/ports", q);
        EXPECT_EQ(r.status, 400) << q;
    }
}

TEST(HttpRequest, QueryParametersAreDecoded) {
    HttpRequest r;
    r.query = "device=mlx5%5F0&empty&x=a+b&bad=%zz";
    EXPECT_EQ(r.query_param("device"), "mlx5_0");
    EXPECT_EQ(r.query_param("empty"), "");
    EXPECT_EQ(r.query_param("x"), "a b");
    EXPECT_EQ(r.query_param("bad"), "%zz");
    EXPECT_FALSE(r.query_param("missing"));
}

}  // namespace
}  // namespace rdmadiag::api
