#include "collector/sources/mad/mad_observations.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>

namespace rdmadiag::mad {
namespace {

SubnetReading sample_reading() {
    SubnetReading r;
    r.discovery = "sa";
    NodeReading sw;
    sw.info.node_type = 2;
    sw.info.num_ports = 1;
    sw.info.node_guid = 0x0002c90300001234;
    sw.description = "spine";
    sw.route = Route{false, {}, 2};
    PortReading p0{.port = 0, .route = sw.route, .pma_lid = 2};
    p0.info = PortInfo{};
    p0.info->lid = 2;
    p0.info->port_state = 4;
    p0.info->phys_state = 5;
    p0.sma_pkeys = std::vector<uint16_t>{0xffff, 0, 0x8001};
    PortReading p1{.port = 1, .route = sw.route, .pma_lid = 2};
    p1.info = PortInfo{};
    p1.info->port_state = 1;
    p1.info->p_key_violations = 0x1234;
    p1.sma_pkeys = std::vector<uint16_t>(32, 0);
    p1.sma_unreadable = {0, 1};
    p1.sm_pkeys = std::vector<uint16_t>(32, 0);
    p1.counters = {{"port_rcv_constraint_errors", 5, 8}, {"port_xmit_data", 1ull << 40, 64}};
    p1.errors = {"P_KeyTable block 0: no answer"};
    sw.ports = {p0, p1};
    r.nodes.push_back(sw);
    r.errors.push_back("SA discovery failed");
    return r;
}

TEST(MadObservations, SubnetNodesAreNamedByGuidWithTheirLid) {
    auto obs =
        reading_to_observations(sample_reading(), {}, TimePoint{} + std::chrono::seconds(5), "mad");
    ASSERT_FALSE(obs.empty());
    for (const auto& o : obs) {
        EXPECT_EQ(o.source, "mad");
        EXPECT_EQ(o.time, TimePoint{} + std::chrono::seconds(5));
    }
    const auto& dev = std::get<DeviceInfo>(obs.front().body);
    EXPECT_EQ(dev.device, "guid:0x0002c90300001234");
    EXPECT_EQ(dev.node_type, "switch");
    EXPECT_EQ(dev.lid, 2u);
    EXPECT_EQ(dev.node_desc, "spine");
    EXPECT_EQ(std::get<DeviceList>(obs.back().body).devices,
              std::vector<std::string>{"guid:0x0002c90300001234"});
}

TEST(MadObservations, ALinkedPortHasTheRateOfItsWidthAndSpeed) {
    SubnetReading r = sample_reading();
    auto& sw = r.nodes[0];
    for (auto& p : sw.ports) {
        p.info->link_width_active = 2;
        p.info->link_speed_active = 4;
        p.info->link_speed_ext_active = 2;
    }
    sw.ports[1].info->phys_state = 5;
    PortReading down = sw.ports[1];
    down.port = 2;
    down.info->phys_state = 2;  // Polling: no link, no rate
    sw.ports.push_back(down);
    sw.info.num_ports = 2;
    std::map<uint32_t, std::optional<std::string>> rates;
    for (const auto& o : reading_to_observations(r, {}, TimePoint{}, "mad")) {
        if (auto* s = std::get_if<PortStateSample>(&o.body)) rates[s->port.port] = s->rate;
    }
    ASSERT_EQ(rates.size(), 3u);
    EXPECT_EQ(rates[0], std::nullopt) << "a switch's port 0 has no link of its own";
    EXPECT_EQ(rates[1], "100 Gb/sec (4X EDR)");
    EXPECT_EQ(rates[2], std::nullopt);
}

TEST(MadObservations, ASweepThatReachedNothingDeclaresNoNodeGone) {
    SubnetReading r;
    r.errors.push_back(
        "SA NodeRecord: no answer; directed route: NodeInfo at the local port: no answer");
    auto obs = reading_to_observations(r, {}, TimePoint{}, "mad");
    ASSERT_EQ(obs.size(), 1u) << "only the sweep-wide error";
    const auto* e = std::get_if<SampleError>(&obs[0].body);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->subject, "mad sweep");
    for (const auto& o : obs) EXPECT_FALSE(std::holds_alternative<DeviceList>(o.body));
}

TEST(MadObservations, PortsCarryTablesCountersAndErrors) {
    auto obs = reading_to_observations(sample_reading(), {}, TimePoint{}, "mad");
    PortRef p1{"guid:0x0002c90300001234", 1};
    bool state = false, sma = false, sm = false, viol = false, constraint = false, data = false,
         err = false, sweep_err = false;
    for (const auto& o : obs) {
        if (auto* s = std::get_if<PortStateSample>(&o.body); s && s->port == p1) {
            state = true;
            EXPECT_EQ(s->state, PortState::down);
            EXPECT_EQ(s->lid, 2u) << "a switch port is reached at the switch's LID";
        }
        if (auto* t = std::get_if<PKeyTableSample>(&o.body); t && t->port == p1) {
            if (t->view == PKeyView::sma) {
                sma = true;
                EXPECT_EQ(t->table.unreadable, (std::vector<uint16_t>{0, 1}));
                EXPECT_FALSE(t->table.complete());
            }
            if (t->view == PKeyView::sm) sm = true;
        }
        if (auto* c = std::get_if<CounterSample>(&o.body); c && c->port == p1) {
            if (c->name == "p_key_violations") {
                viol = true;
                EXPECT_EQ(c->value, 0x1234u);
                EXPECT_EQ(c->width, 16);
                EXPECT_EQ(c->kind, CounterKind::portinfo);
            }
            if (c->name == "port_rcv_constraint_errors") {
                constraint = true;
                EXPECT_EQ(c->width, 8);
                EXPECT_EQ(c->kind, CounterKind::pma);
            }
            if (c->name == "port_xmit_data") data = c->value == (1ull << 40) && c->width == 64;
        }
        if (auto* e = std::get_if<SampleError>(&o.body)) {
            if (e->subject == p1.to_string()) err = true;
            if (e->subject == "mad sweep") sweep_err = true;
        }
    }
    EXPECT_TRUE(state && sma && sm && viol && constraint && data && err && sweep_err);
}

TEST(MadObservations, SwitchPortsCarryTheirPeerAndPartitionEnforcement) {
    SubnetReading r = sample_reading();
    PortReading& p1 = r.nodes[0].ports[1];
    p1.peer = PortPeer{0x0002c9030000abcd, 1};
    p1.info->partition_enforcement_inbound = true;
    const PortStateSample* port0 = nullptr;
    const PortStateSample* port1 = nullptr;
    const auto obs = reading_to_observations(r, {}, TimePoint{}, "mad");
    for (const auto& o : obs) {
        if (auto* s = std::get_if<PortStateSample>(&o.body))
            (s->port.port == 0 ? port0 : port1) = s;
    }
    ASSERT_TRUE(port0 && port1);
    EXPECT_EQ(port1->peer_node_guid, 0x0002c9030000abcdu);
    EXPECT_EQ(port1->peer_port, 1u);
    EXPECT_EQ(port1->partition_enforcement_inbound, true);
    EXPECT_EQ(port1->partition_enforcement_outbound, false);
    EXPECT_FALSE(port0->peer_node_guid.has_value());
    EXPECT_FALSE(port0->partition_enforcement_inbound.has_value())
        << "port 0 has no link to enforce anything on";
}

TEST(MadObservations, PortsCarryTheirGuidsASwitchsPortZeroItsNodeInfos) {
    SubnetReading r = sample_reading();
    r.nodes[0].info.port_guid = 0x0002c90300001234;
    NodeReading ca;
    ca.info.node_type = 1;
    ca.info.num_ports = 2;
    ca.info.node_guid = 0x0002c90300005670;
    for (uint8_t n : {1, 2}) {
        PortReading p{.port = n, .route = Route{false, {}, 9}, .pma_lid = 9};
        p.info = PortInfo{};
        p.info->port_state = 4;
        if (n == 1) p.guid = 0x0002c90300005671;  // port 2's NodeInfo never arrived
        ca.ports.push_back(p);
    }
    r.nodes.push_back(ca);
    std::map<std::pair<std::string, uint32_t>, std::optional<uint64_t>> guids;
    for (const auto& o : reading_to_observations(r, {}, TimePoint{}, "mad")) {
        if (auto* s = std::get_if<PortStateSample>(&o.body))
            guids[{s->port.device, s->port.port}] = s->port_guid;
    }
    EXPECT_EQ((guids[{"guid:0x0002c90300001234", 0}]), 0x0002c90300001234u);
    EXPECT_EQ((guids[{"guid:0x0002c90300001234", 1}]), std::nullopt) << "not an end port";
    EXPECT_EQ((guids[{"guid:0x0002c90300005670", 1}]), 0x0002c90300005671u);
    EXPECT_EQ((guids[{"guid:0x0002c90300005670", 2}]), std::nullopt);
}

TEST(MadObservations, ANodeThatAnsweredNoPortInfoIsUnreachableWithItsReason) {
    SubnetReading r = sample_reading();
    NodeReading ca;
    ca.info.node_type = 1;
    ca.info.node_guid = 0x77;
    PortReading p{.port = 1};
    p.errors = {"PortInfo: lid 9: no answer within 200ms after 3 attempts"};
    ca.ports = {p};
    r.nodes.push_back(ca);
    const auto obs = reading_to_observations(r, {}, TimePoint{}, "mad");
    std::map<std::string, DeviceInfo> infos;
    for (const auto& o : obs) {
        if (const auto* d = std::get_if<DeviceInfo>(&o.body)) infos[d->device] = *d;
    }
    const DeviceInfo& sw = infos.at(guid_device_name(0x0002c90300001234));
    EXPECT_EQ(sw.reachable, true);
    EXPECT_EQ(sw.unreachable_kind, "");
    const DeviceInfo& gone = infos.at(guid_device_name(0x77));
    EXPECT_EQ(gone.reachable, false);
    EXPECT_EQ(gone.unreachable_kind, "no_answer");
    EXPECT_EQ(gone.unreachable_reason, p.errors.front());
}

TEST(MadObservations, LocalScopeKeepsTheCaName) {
    auto r = sample_reading();
    ObservationNaming naming{"mlx5_0", 0x0002c90300001234};
    auto obs = reading_to_observations(r, naming, TimePoint{}, "mad");
    EXPECT_EQ(std::get<DeviceInfo>(obs.front().body).device, "mlx5_0");
}

std::map<std::pair<PortRef, GidView>, GidTable> gid_tables(const std::vector<Observation>& obs) {
    std::map<std::pair<PortRef, GidView>, GidTable> tables;
    for (const auto& o : obs) {
        if (const auto* g = std::get_if<GidTableSample>(&o.body)) {
            EXPECT_TRUE(tables.emplace(std::pair{g->port, g->view}, g->table).second)
                << "one table per port and view";
        }
    }
    return tables;
}

GidEntry ib_gid(uint16_t index, uint64_t prefix, uint64_t guid) {
    return GidEntry{index, Gid::from_parts(prefix, guid), GidType::ib, {}};
}

TEST(MadObservations, SubnetPortsWithGidsHaveGidZeroOfPrefixAndPortGuid) {
    SubnetReading r = sample_reading();
    r.nodes[0].info.port_guid = 0x0002c90300001234;
    r.nodes[0].ports[0].info->gid_prefix = 0xfe80000000000000ull;
    r.nodes[0].ports[1].info->gid_prefix = 0xfe80000000000000ull;
    NodeReading ca;
    ca.info.node_type = 1;
    ca.info.num_ports = 2;
    ca.info.node_guid = 0x0002c90300005670;
    for (uint8_t n : {1, 2}) {
        PortReading p{.port = n, .route = Route{false, {}, 9}, .pma_lid = 9};
        p.info = PortInfo{};
        p.info->gid_prefix = 0xfec0000000000007ull;
        if (n == 1) p.guid = 0x0002c90300005671;  // port 2's NodeInfo never arrived
        ca.ports.push_back(p);
    }
    PortReading silent{.port = 3};  // no PortInfo: nothing is known of its GIDs
    ca.ports.push_back(silent);
    r.nodes.push_back(ca);
    const auto tables = gid_tables(reading_to_observations(r, {}, TimePoint{}, "mad"));
    const std::string sw = guid_device_name(0x0002c90300001234);
    const std::string host = guid_device_name(0x0002c90300005670);
    ASSERT_EQ(tables.size(), 3u)
        << "switch port 0 and the CA's two read ports, the SMA's view only";
    const GidTable& sw0 = tables.at({PortRef{sw, 0}, GidView::sma});
    EXPECT_EQ(sw0.entries,
              (std::vector<GidEntry>{ib_gid(0, 0xfe80000000000000ull, 0x0002c90300001234)}));
    EXPECT_TRUE(sw0.complete());
    EXPECT_EQ(sw0.entries[0].gid.to_string(), "fe80:0000:0000:0000:0002:c903:0000:1234");
    EXPECT_FALSE(tables.count({PortRef{sw, 1}, GidView::sma})) << "an external port has no GIDs";
    const GidTable& h1 = tables.at({PortRef{host, 1}, GidView::sma});
    EXPECT_EQ(h1.entries,
              (std::vector<GidEntry>{ib_gid(0, 0xfec0000000000007ull, 0x0002c90300005671)}));
    const GidTable& h2 = tables.at({PortRef{host, 2}, GidView::sma});
    EXPECT_TRUE(h2.entries.empty());
    EXPECT_EQ(h2.unreadable, (std::vector<uint16_t>{0})) << "no port GUID known: GID 0 unknown";
}

TEST(MadObservations, LocalPortsHaveTheirAliasGuidsAndTheSmsView) {
    SubnetReading r;
    r.discovery = "local";
    NodeReading ca;
    ca.info.node_type = 1;
    ca.info.num_ports = 1;
    ca.info.node_guid = 0x0002c90300005670;
    PortReading p{.port = 1, .route = Route{true, {}, 0}, .guid = 0x0002c90300005671};
    p.info = PortInfo{};
    p.info->gid_prefix = 0xfe80000000000000ull;
    p.guid_table = std::make_shared<PortGuidTable>();
    PortGuidTable& t = *p.guid_table;
    t.sma = std::vector<uint64_t>(24, 0);
    t.sma[0] = 0x0002c90300005671;
    t.sma[2] = 0x0002c9030000a002;
    t.sma_unreadable = {16, 17, 18, 19, 20, 21, 22, 23};
    t.sm_prefix = 0xfec0000000000001ull;
    t.sm = std::vector<uint64_t>(24, 0);
    t.sm[0] = 0x0002c90300005671;
    t.sm[2] = 0x0002c9030000a002;
    t.sm[17] = 0x0002c9030000a017;
    ca.ports.push_back(p);
    r.nodes.push_back(ca);
    ObservationNaming naming{"mlx5_0", 0x0002c90300005670};
    const auto tables = gid_tables(reading_to_observations(r, naming, TimePoint{}, "mad"));
    const PortRef ref{"mlx5_0", 1};
    const GidTable& sma = tables.at({ref, GidView::sma});
    EXPECT_EQ(sma.entries,
              (std::vector<GidEntry>{ib_gid(0, 0xfe80000000000000ull, 0x0002c90300005671),
                                     ib_gid(2, 0xfe80000000000000ull, 0x0002c9030000a002)}));
    EXPECT_EQ(sma.unreadable, t.sma_unreadable);
    const GidTable& sm = tables.at({ref, GidView::sm});
    EXPECT_EQ(sm.entries,
              (std::vector<GidEntry>{ib_gid(0, 0xfec0000000000001ull, 0x0002c90300005671),
                                     ib_gid(2, 0xfec0000000000001ull, 0x0002c9030000a002),
                                     ib_gid(17, 0xfec0000000000001ull, 0x0002c9030000a017)}));
    EXPECT_TRUE(sm.complete());

    // GUIDInfo block 0 lost: the port GUID discovery knows stands in for GUID 0; the rest of the
    // block is unreadable. Without a PortInfoRecord there is no SM view.
    t.sma_unreadable = {0, 1, 2, 3, 4, 5, 6, 7};
    t.sm_prefix.reset();
    const auto again = gid_tables(reading_to_observations(r, naming, TimePoint{}, "mad"));
    const GidTable& lost = again.at({ref, GidView::sma});
    EXPECT_EQ(lost.entries,
              (std::vector<GidEntry>{ib_gid(0, 0xfe80000000000000ull, 0x0002c90300005671)}));
    EXPECT_EQ(lost.unreadable, (std::vector<uint16_t>{1, 2, 3, 4, 5, 6, 7}));
    EXPECT_FALSE(again.count({ref, GidView::sm}));
}

TEST(MadObservations, GidTablesComeWithTheirPortsPKeyTables) {
    // In one pass, and in the port's run of observations: a consumer of one port's tables sees
    // its GIDs beside them.
    SubnetReading r = sample_reading();
    r.nodes[0].info.port_guid = 0x0002c90300001234;
    const auto obs = reading_to_observations(r, {}, TimePoint{}, "mad");
    size_t pkeys = obs.size(), gids = obs.size();
    for (size_t i = 0; i < obs.size(); ++i) {
        if (const auto* t = std::get_if<PKeyTableSample>(&obs[i].body); t && t->port.port == 0)
            pkeys = i;
        if (std::get_if<GidTableSample>(&obs[i].body)) gids = i;
    }
    ASSERT_LT(gids, obs.size());
    EXPECT_EQ(gids, pkeys + 1);
}

}  // namespace
}  // namespace rdmadiag::mad
