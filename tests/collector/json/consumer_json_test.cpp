#include "collector/json/consumer_json.hpp"

#include <gtest/gtest.h>

#include "collector/json/observation_json.hpp"

namespace rdmadiag {
namespace {

ConsumerInventory sample() {
    ConsumerInventory inv;
    inv.device = "mlx5_0";
    inv.complete = false;
    inv.notes = {"QP dump: Operation not permitted"};
    Consumer ipoib;
    ipoib.kind = ConsumerKind::ipoib;
    ipoib.name = "ib0.8001";
    ipoib.device = "mlx5_0";
    ipoib.port = 1;
    ipoib.pkey = 0x8001;
    ipoib.pkey_index = 2;
    ipoib.index_source = IndexSource::inferred;
    ipoib.gid = parse_gid("fe80::2:c903:0:1235").value();
    ipoib.qp_type = "UD";
    ipoib.mode = "connected";
    ipoib.state = "UP";
    ipoib.carrier = true;
    ipoib.carrier_changes = 4;
    ipoib.parent = "ib0";
    Consumer qps;
    qps.kind = ConsumerKind::qp;
    qps.name = qps.qp_type = "RC";
    qps.device = "mlx5_0";
    qps.port = 1;
    qps.owner = ConsumerOwner{4242u, "ib_send_bw"};
    qps.count = 2;
    Consumer id;
    id.kind = ConsumerKind::cm_id;
    id.name = "cm_id 0";
    id.device = "mlx5_0";
    id.owner.name = "rpcrdma";
    id.address = "192.0.2.1:20049";
    inv.consumers = {ipoib, qps, id};
    return inv;
}

TEST(ConsumerJson, RoundTrips) {
    const auto inv = sample();
    const codec::Json j = inv;
    EXPECT_EQ(j.at("consumers").at(0).at("pkey"), "0x8001");
    EXPECT_EQ(j.at("consumers").at(0).at("index_source"), "inferred");
    EXPECT_EQ(j.at("consumers").at(1).at("count"), 2);
    // Nothing to say is left out: a CM ID without key, GID or QP type.
    EXPECT_FALSE(j.at("consumers").at(2).contains("pkey"));
    EXPECT_FALSE(j.at("consumers").at(2).contains("gid"));
    EXPECT_FALSE(j.at("consumers").at(2).contains("count"));
    EXPECT_EQ(j.get<ConsumerInventory>(), inv);
}

TEST(ConsumerJson, AsAnObservation) {
    Observation obs{TimePoint{} + std::chrono::seconds(1700000000), "consumers", sample()};
    const auto line = codec::observation_to_line(obs);
    EXPECT_NE(line.find(R"("kind":"consumer_inventory")"), std::string::npos) << line;
    auto back = codec::observation_from_line(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, obs);
}

TEST(ConsumerJson, BadFieldsNameThemselves) {
    codec::Json j = sample();
    j["consumers"][0]["pkey"] = "0xzzzz";
    try {
        (void)j.get<ConsumerInventory>();
        FAIL() << "accepted a bad pkey";
    } catch (const codec::JsonDecodeError& e) {
        EXPECT_NE(std::string(e.what()).find("pkey"), std::string::npos) << e.what();
    }
    j = sample();
    j["consumers"][1]["kind"] = "printer";
    EXPECT_THROW((void)j.get<ConsumerInventory>(), codec::JsonDecodeError);
}

TEST(ConsumerJson, TheCommandsDocumentFiltersByDeviceAndPort) {
    HostConsumers host;
    host.devices = {sample()};
    host.read = {TimePoint{} + std::chrono::seconds(1700000000)};
    Finding f;
    f.rule = "consumer.pkey_absent";
    f.subject = FindingSubject{"mlx5_0", 1u, std::nullopt, uint16_t{0x8001}};
    Finding other;
    other.rule = "pkey.removed";
    other.subject = f.subject;
    auto j = codec::consumers_to_json(&host, {f, other}, std::nullopt, std::nullopt);
    EXPECT_EQ(j.at("listed"), true);
    EXPECT_EQ(j.at("devices").at(0).at("consumers").size(), 3u);
    EXPECT_EQ(j.at("findings").size(), 1u);
    j = codec::consumers_to_json(&host, {f}, std::string("mlx5_0"), 1u);
    EXPECT_EQ(j.at("devices").at(0).at("consumers").size(), 2u);  // the CM ID is on port 0
    j = codec::consumers_to_json(&host, {f}, std::string("mlx5_1"), std::nullopt);
    EXPECT_TRUE(j.at("devices").empty());
    EXPECT_TRUE(j.at("findings").empty());
    j = codec::consumers_to_json(nullptr, {}, std::nullopt, std::nullopt);
    EXPECT_EQ(j.at("listed"), false);
}

TEST(ConsumerJson, AClientReadsTheAnswerBack) {
    HostConsumers host;
    host.devices = {sample()};
    host.read = {TimePoint{} + std::chrono::seconds(1700000000)};
    const auto text = codec::consumers_to_json(&host, {}, std::nullopt, std::nullopt).dump();
    auto back = codec::parse_consumers_answer(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->has_value());
    EXPECT_EQ(**back, host);

    auto none = codec::parse_consumers_answer(
        codec::consumers_to_json(nullptr, {}, std::nullopt, std::nullopt).dump());
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value()) << "no consumers source reported";

    for (const char* bad :
         {"", "[]", "{}", R"({"listed": true})",
          R"({"listed": true, "devices": [{"device": "mlx5_0", "consumers": 3}]})",
          R"({"listed": true, "devices": [{"device": "mlx5_0", "read": "x"}]})"}) {
        auto r = codec::parse_consumers_answer(bad);
        EXPECT_FALSE(r.ok()) << bad;
    }
    auto r = codec::parse_consumers_answer(R"({"listed": "yes"})");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("listed"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rdmadiag
