#include "collector/json/mr_state_json.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "collector/engine/mr/mr_health_tracker.hpp"
#include "tests/collector/engine/mr/mr_test_events.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::codec {
namespace {

using test::mr_event;
using test::mr_lifecycle;
using test::obs;

MrHealth story() {
    engine::Engine engine;
    engine.add_module(std::make_unique<engine::mr::MrHealthTracker>());
    engine.consume(obs(10, mr_lifecycle(1, MrOp::alloc)));
    engine.consume(obs(11, mr_event(1, MrOp::fastreg)));
    engine.consume(obs(12, mr_event(1, MrOp::local_inv, WcStatus::wr_flush_err)));
    engine.consume(obs(12.5, mr_event(2, MrOp::fastreg, WcStatus::mw_bind_err)));
    MrEvent posted = mr_event(2, MrOp::local_inv);
    posted.posted = true;
    posted.key = 0x1234;
    engine.consume(obs(13, posted));
    engine.consume(obs(14, mr_event(3, MrOp::bind_mw, WcStatus::mw_bind_err)));
    engine.consume(obs(20, mr_lifecycle(3, MrOp::dereg)));
    MrHealth h = engine.snapshot()->mrs;
    h.kernel = MrKernelBehaviour{FlushedMrHandling::recovered, "5.4.0", "given"};
    MrProcessUsage p;
    p.pid = 4242;
    p.comm = "trainer";
    p.mrs = 900;
    p.bytes = 900u << 20;
    p.devices = {"mlx5_0"};
    p.first_seen = test::at(1);
    p.mrs_growth = 800;
    p.bytes_growth = -4096;
    p.growth_over = std::chrono::minutes(10);
    p.leak_suspected = true;
    h.usage.processes.push_back(p);
    MrProcessUsage gone;
    gone.owner_gone = true;
    gone.mrs = 3;
    h.usage.processes.push_back(gone);
    h.usage.other_processes = 2;
    h.usage.other_mrs = 7;
    h.usage.other_bytes = 7 * 4096;
    h.usage.devices.push_back(MrDeviceUsage{"mlx5_0", 910, 910u << 20, 1000u, 3, true});
    h.usage.devices.push_back(MrDeviceUsage{"rxe0", 0, 0, std::nullopt, 0, false});
    return h;
}

TEST(MrStateJson, RoundTripsAWholeStory) {
    MrHealth h = story();
    ASSERT_EQ(h.mrs.size(), 3u);
    ASSERT_EQ(h.recoveries.size(), 1u);
    Json j = h;
    auto back = mr_health_from_json(Json::parse(j.dump()));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, h);
}

TEST(MrStateJson, ShapeUsesStableNames) {
    Json j = story();
    EXPECT_EQ(j["mrs"][0]["state"], "unknown");
    EXPECT_EQ(j["mrs"][0]["last_status"], "WR_FLUSH_ERR");
    EXPECT_EQ(j["mrs"][1]["state"], "stuck");
    EXPECT_EQ(j["mrs"][0]["state_since"], "1970-01-01T00:00:12.000Z");
    EXPECT_EQ(j["devices"][0]["by_state"]["stuck"], 1);
    EXPECT_EQ(j["devices"][0]["bind_errors"], 2);
    EXPECT_EQ(j["devices"][0]["posted"]["LOCAL_INV"], 1);
    EXPECT_EQ(j["recoveries"][0]["kind"], "dereg");
    EXPECT_DOUBLE_EQ(j["recoveries"][0]["seconds"].get<double>(), 6.0);
    EXPECT_FALSE(j["mrs"][0].contains("key"));
}

TEST(MrStateJson, BadInputIsAnErrorNotACrash) {
    Json j = story();
    auto bad_state = j;
    bad_state["mrs"][0]["state"] = "sideways";
    EXPECT_FALSE(mr_health_from_json(bad_state).ok());
    auto bad_time = j;
    bad_time["mrs"][0]["state_since"] = "yesterday";
    EXPECT_FALSE(mr_health_from_json(bad_time).ok());
    auto wrong_type = j;
    wrong_type["mrs"][0]["mr"] = "seventeen";
    EXPECT_FALSE(mr_health_from_json(wrong_type).ok());
    auto missing = j;
    missing["mrs"][0].erase("device");
    EXPECT_FALSE(mr_health_from_json(missing).ok());
    EXPECT_TRUE(mr_health_from_json(Json::object()).ok());  // nothing tracked yet
}

TEST(MrStateJson, NumbersOutOfTheirFieldsRangeAreErrorsNamingTheField) {
    Json j = story();
    auto negative_mr = j;
    negative_mr["mrs"][0]["mr"] = -17;
    auto r = mr_health_from_json(negative_mr);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("field 'mrs.mr': expected an integer from 0 to"),
              std::string::npos)
        << r.error().message;
    auto huge_key = j;
    huge_key["mrs"][0]["key"] = 4294967296ULL;
    r = mr_health_from_json(huge_key);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("field 'mrs.key'"), std::string::npos) << r.error().message;
    auto float_count = j;
    float_count["dropped_records"] = 1e300;
    r = mr_health_from_json(float_count);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("field 'dropped_records'"), std::string::npos)
        << r.error().message;
}

}  // namespace
}  // namespace rdmadiag::codec
