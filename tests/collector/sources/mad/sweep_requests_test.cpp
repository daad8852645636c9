#include "collector/sources/mad/sweep_requests.hpp"

#include <gtest/gtest.h>

#include "collector/sources/mad/sa_records.hpp"
#include "tests/collector/sources/mad/answering_transport.hpp"

namespace rdmadiag::mad {
namespace {

NodeReading ca(uint16_t lid) {
    NodeReading n;
    n.info.node_type = static_cast<uint8_t>(NodeType::ca);
    n.info.partition_cap = 64;
    n.description = "ca";
    n.route = Route{false, {}, lid};
    n.pma_lid = lid;
    PortReading p{.port = 1, .route = n.route, .pma_lid = lid};
    p.info = PortInfo{};
    p.info->lid = lid;
    n.ports.push_back(p);
    return n;
}

NodeReading sw(uint16_t lid) {
    NodeReading n;
    n.info.node_type = static_cast<uint8_t>(NodeType::switch_node);
    n.info.num_ports = 2;
    n.route = Route{false, {}, lid};
    n.pma_lid = lid;
    for (uint8_t p = 0; p <= 2; ++p) {
        n.ports.push_back(PortReading{.port = p, .route = n.route, .pma_lid = lid});
        n.ports.back().info = PortInfo{};
    }
    return n;
}

uint16_t attr_of(const MadRequest& r) {
    return get16(r.mad, 16);
}
uint32_t modifier_of(const MadRequest& r) {
    return get32(r.mad, 20);
}

TEST(SweepRequests, SwitchInfoAndNodeDescriptionOnlyWhereTheyApply) {
    MadBatch batch;
    NodeReading a = ca(1);
    add_switch_info(batch, a);
    add_node_description(batch, a);
    EXPECT_TRUE(batch.requests().empty()) << "a CA has no SwitchInfo; its description is known";

    NodeReading s = sw(3);
    add_switch_info(batch, s);
    add_node_description(batch, s);
    ASSERT_EQ(batch.requests().size(), 2u);
    EXPECT_EQ(attr_of(batch.requests()[0]), attr::switch_info);
    EXPECT_EQ(attr_of(batch.requests()[1]), attr::node_description);
    EXPECT_EQ(batch.requests()[0].target, "lid 3");
}

TEST(SweepRequests, PKeyBlocksSizeTheTableAndNameTheSwitchPort) {
    MadBatch batch;
    NodeReading a = ca(1);
    add_pkey_blocks(batch, a, a.ports[0]);
    ASSERT_EQ(batch.requests().size(), 2u) << "64 entries are two blocks";
    EXPECT_EQ(modifier_of(batch.requests()[0]), 0u);
    EXPECT_EQ(modifier_of(batch.requests()[1]), 1u);
    ASSERT_TRUE(a.ports[0].sma_pkeys.has_value());
    EXPECT_EQ(a.ports[0].sma_pkeys->size(), 64u);

    MadBatch sw_batch;
    NodeReading s = sw(3);
    s.switch_info = SwitchInfo{.partition_enforcement_cap = 32};
    add_pkey_blocks(sw_batch, s, s.ports[2]);
    ASSERT_EQ(sw_batch.requests().size(), 1u);
    EXPECT_EQ(modifier_of(sw_batch.requests()[0]), 0x20000u);
}

TEST(SweepRequests, NoPKeyBlocksWithoutATableSizeOrAWayToTheTable) {
    MadBatch batch;
    NodeReading s = sw(3);
    add_pkey_blocks(batch, s, s.ports[1]);
    EXPECT_TRUE(batch.requests().empty());
    ASSERT_EQ(s.ports[1].errors.size(), 1u);
    EXPECT_NE(s.ports[1].errors[0].find("SwitchInfo was not read"), std::string::npos);

    NodeReading a = ca(1);
    a.ports[0].table_reachable = false;
    add_pkey_blocks(batch, a, a.ports[0]);
    EXPECT_TRUE(batch.requests().empty());
    EXPECT_FALSE(a.ports[0].sma_pkeys.has_value());
}

TEST(SweepRequests, ALostPKeyBlockLeavesOnlyItsIndexesUnreadable) {
    test::AnsweringTransport t;
    t.answer = [](Bytes req) -> std::optional<std::vector<uint8_t>> {
        if (get32(req, 20) == 1) return std::nullopt;  // block 1 never answers
        std::vector<uint8_t> keys(64, 0);
        put16(keys, 0, 0xffff);
        return keys;
    };
    MadEngine engine = test::engine_on(t);
    MadBatch batch;
    NodeReading a = ca(1);
    PortReading& port = a.ports[0];
    add_pkey_blocks(batch, a, port);
    batch.run(engine);
    EXPECT_EQ((*port.sma_pkeys)[0], 0xffff);
    ASSERT_EQ(port.sma_unreadable.size(), 32u);
    EXPECT_EQ(port.sma_unreadable.front(), 32u);
    EXPECT_EQ(port.sma_unreadable.back(), 63u);
    ASSERT_EQ(port.errors.size(), 1u);
    EXPECT_EQ(port.errors[0].rfind("P_KeyTable block 1: ", 0), 0u) << port.errors[0];
}

TEST(SweepRequests, CountersNeedAPmaAndExtendedCountersItsCapability) {
    MadBatch batch;
    NodeReading s = sw(3);
    add_port_counters(batch, s, s.ports[0]);
    EXPECT_TRUE(batch.requests().empty()) << "a switch's port 0 has no PortCounters";
    add_port_counters(batch, s, s.ports[1]);
    ASSERT_EQ(batch.requests().size(), 1u);
    EXPECT_EQ(attr_of(batch.requests()[0]), attr::port_counters);
    EXPECT_EQ(batch.requests()[0].agent, Agent::pma);

    add_port_counters_ext(batch, s, s.ports[1]);
    EXPECT_EQ(batch.requests().size(), 1u) << "no ClassPortInfo: no PortCountersExtended";
    s.pma_info = PmaClassPortInfo{.capability_mask = kPmaExtendedWidth};
    add_port_counters_ext(batch, s, s.ports[1]);
    ASSERT_EQ(batch.requests().size(), 2u);
    EXPECT_EQ(attr_of(batch.requests()[1]), attr::port_counters_ext);
}

TEST(SweepRequests, SmRecordsFollowTheSmaTableAndAFailedBlockVoidsTheSmView) {
    MadBatch batch;
    NodeReading a = ca(5);
    add_sm_pkey_records(batch, a, a.ports[0], 1, 0x1);
    EXPECT_TRUE(batch.requests().empty()) << "no SMA table read, no size to ask for";

    a.ports[0].sma_pkeys = std::vector<uint16_t>(64, 0);
    add_sm_pkey_records(batch, a, a.ports[0], 1, 0x1);
    ASSERT_EQ(batch.requests().size(), 2u);
    EXPECT_EQ(batch.requests()[0].agent, Agent::sa);
    EXPECT_EQ(attr_of(batch.requests()[0]), attr::pkey_table_record);
    ASSERT_TRUE(a.ports[0].sm_pkeys.has_value());

    test::AnsweringTransport t;
    t.answer = [](Bytes) { return std::optional<std::vector<uint8_t>>(); };
    MadEngine engine = test::engine_on(t);
    batch.run(engine);
    EXPECT_FALSE(a.ports[0].sm_pkeys.has_value()) << "a partial intent is no intent";
    ASSERT_EQ(a.ports[0].errors.size(), 2u);
    EXPECT_EQ(a.ports[0].errors[0].rfind("SA PKeyTableRecord block 0: ", 0), 0u);
}

TEST(SweepRequests, GuidBlocksOnlyOnPortsWithGidsAndAsManyAsGuidCapSays) {
    MadBatch batch;
    NodeReading s = sw(3);
    s.ports[0].info->guid_cap = 1;
    s.ports[1].info->guid_cap = 8;  // an external port's GUIDCap means nothing: it has no GIDs
    add_guid_blocks(batch, s, s.ports[1]);
    EXPECT_TRUE(batch.requests().empty());
    EXPECT_EQ(s.ports[1].guid_table, nullptr);
    add_guid_blocks(batch, s, s.ports[0]);
    ASSERT_EQ(batch.requests().size(), 1u);
    EXPECT_EQ(attr_of(batch.requests()[0]), attr::guid_info);
    EXPECT_EQ(modifier_of(batch.requests()[0]), 0u) << "the block alone, no port bits";

    MadBatch ca_batch;
    NodeReading a = ca(1);
    add_guid_blocks(ca_batch, a, a.ports[0]);
    EXPECT_TRUE(ca_batch.requests().empty()) << "GUIDCap 0: nothing to read";
    a.ports[0].info->guid_cap = 20;
    add_guid_blocks(ca_batch, a, a.ports[0]);
    ASSERT_EQ(ca_batch.requests().size(), 3u);
    EXPECT_EQ(modifier_of(ca_batch.requests()[2]), 2u);
    ASSERT_NE(a.ports[0].guid_table, nullptr);
    EXPECT_EQ(a.ports[0].guid_table->sma.size(), 20u);

    MadBatch unreachable;
    NodeReading b = ca(2);
    b.ports[0].info->guid_cap = 8;
    b.ports[0].table_reachable = false;
    add_guid_blocks(unreachable, b, b.ports[0]);
    EXPECT_TRUE(unreachable.requests().empty()) << "its route ends at another port's SMA";
}

TEST(SweepRequests, ALostGuidBlockLeavesOnlyItsIndexesUnreadable) {
    test::AnsweringTransport t;
    t.answer = [](Bytes req) -> std::optional<std::vector<uint8_t>> {
        const uint32_t block = get32(req, 20);
        if (block == 1) return std::nullopt;
        std::vector<uint8_t> guids(64, 0);
        if (block == 0) put64(guids, 0, 0x0002c90300001235ull);
        if (block == 2) put64(guids, 8, 0x0002c9030000a11aull);      // index 17
        if (block == 2) put64(guids, 8 * 7, 0xffffffffffffffffull);  // index 23: past GUIDCap
        return guids;
    };
    MadEngine engine = test::engine_on(t);
    MadBatch batch;
    NodeReading a = ca(1);
    PortReading& port = a.ports[0];
    port.info->guid_cap = 20;
    add_guid_blocks(batch, a, port);
    batch.run(engine);
    const PortGuidTable& table = *port.guid_table;
    ASSERT_EQ(table.sma.size(), 20u);
    EXPECT_EQ(table.sma[0], 0x0002c90300001235ull);
    EXPECT_EQ(table.sma[17], 0x0002c9030000a11aull);
    EXPECT_EQ(table.sma[19], 0u);
    ASSERT_EQ(table.sma_unreadable.size(), 8u);
    EXPECT_EQ(table.sma_unreadable.front(), 8u);
    EXPECT_EQ(table.sma_unreadable.back(), 15u);
    ASSERT_EQ(port.errors.size(), 1u);
    EXPECT_EQ(port.errors[0].rfind("GUIDInfo block 1: ", 0), 0u) << port.errors[0];
}

TEST(SweepRequests, SmGidRecordsNameThePortByLidAndFailAlone) {
    MadBatch batch;
    NodeReading s = sw(3);
    s.ports[0].info->lid = 3;
    s.ports[0].info->guid_cap = 1;
    add_sm_gid_records(batch, s, s.ports[1], 1, 0x1);
    EXPECT_TRUE(batch.requests().empty()) << "a switch's external port has no GIDs";
    add_sm_gid_records(batch, s, s.ports[0], 1, 0x1);
    ASSERT_EQ(batch.requests().size(), 2u);
    const auto& pir = batch.requests()[0];
    EXPECT_EQ(pir.agent, Agent::sa);
    EXPECT_EQ(attr_of(pir), attr::port_info_record);
    EXPECT_EQ(get64(pir.mad, 48), kPortInfoRecLid | kPortInfoRecPort);  // component mask
    EXPECT_EQ(get16(pir.mad, 56), 3u);
    EXPECT_EQ(pir.mad[58], 0u);
    const auto& gir = batch.requests()[1];
    EXPECT_EQ(attr_of(gir), attr::guid_info_record);
    EXPECT_EQ(get64(gir.mad, 48), kGuidRecLid | kGuidRecBlock);
    EXPECT_EQ(get16(gir.mad, 56), 3u);
    EXPECT_EQ(gir.mad[58], 0u) << "block 0";

    MadBatch ca_batch;
    NodeReading a = ca(0);
    add_sm_gid_records(ca_batch, a, a.ports[0], 1, 0x1);
    EXPECT_TRUE(ca_batch.requests().empty()) << "no LID: the SA cannot be asked about the port";
    a = ca(7);
    a.ports[0].info->guid_cap = 16;
    add_sm_gid_records(ca_batch, a, a.ports[0], 1, 0x1);
    ASSERT_EQ(ca_batch.requests().size(), 3u) << "PortInfoRecord and two GUIDInfoRecords";
    EXPECT_EQ(ca_batch.requests()[0].mad[58], 1u) << "a CA port by its number";
    EXPECT_EQ(ca_batch.requests()[2].mad[58], 1u) << "block 1";

    test::AnsweringTransport t;
    t.answer = [](Bytes) { return std::optional<std::vector<uint8_t>>(); };
    MadEngine engine = test::engine_on(t);
    ca_batch.run(engine);
    const PortGuidTable& table = *a.ports[0].guid_table;
    EXPECT_FALSE(table.sm_prefix.has_value()) << "no PortInfoRecord, no SM view";
    EXPECT_EQ(table.sm_unreadable.size(), 16u);
    ASSERT_EQ(a.ports[0].errors.size(), 3u);
    EXPECT_EQ(a.ports[0].errors[0].rfind("SA PortInfoRecord: ", 0), 0u) << a.ports[0].errors[0];
    EXPECT_EQ(a.ports[0].errors[1].rfind("SA GUIDInfoRecord block 0: ", 0), 0u);
}

}  // namespace
}  // namespace rdmadiag::mad
