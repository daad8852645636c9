#include "collector/engine/inventory.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine {
namespace {

using test::obs;

TEST(Inventory, DeviceListMarksMissingDevicesOfThatSourceOnly) {
    Inventory inv;
    DeviceInfo a{.device = "mlx5_0"};
    DeviceInfo b{.device = "mlx5_1"};
    inv.observe(obs(1, a, "sysfs"));
    inv.observe(obs(1, b, "sysfs"));
    inv.observe(obs(1, DeviceInfo{.device = "lid:7"}, "mad"));
    inv.observe(obs(2, DeviceList{{"mlx5_1"}}, "sysfs"));
    Snapshot s;
    inv.fill(s);
    ASSERT_EQ(s.devices.size(), 3u);
    EXPECT_TRUE(s.find_device("lid:7")->present);
    EXPECT_FALSE(s.find_device("mlx5_0")->present);
    EXPECT_TRUE(s.find_device("mlx5_1")->present);
}

TEST(Inventory, EventsAndErrorsAreBounded) {
    Inventory inv(InventoryLimits{.events = 3, .errors = 2});
    for (int i = 0; i < 10; ++i) {
        AsyncEvent ev{.device = "d", .port = 1, .type = AsyncEventType::port_active};
        inv.observe(obs(i, ev));
        inv.observe(obs(i, SampleError{.subject = "d:1 x", .message = "EINVAL", .code = 22}));
    }
    Snapshot s;
    inv.fill(s);
    EXPECT_EQ(s.events.size(), 3u);
    EXPECT_EQ(s.errors.size(), 2u);
    EXPECT_EQ(s.events.front().time, test::at(7));
    ASSERT_EQ(s.sources.size(), 1u);
    EXPECT_EQ(s.sources[0].errors, 10u);
}

TEST(Inventory, PortsAndCountersListInOrderWhateverTheyArriveIn) {
    Inventory inv;
    auto hw = test::counter("d", 2, "rx_write_requests", 1);
    hw.kind = CounterKind::hw;
    inv.observe(obs(1, hw));
    inv.observe(obs(1, test::counter("d", 2, "symbol_error", 2, 16)));
    inv.observe(obs(1, test::counter("d", 1, "port_xmit_data", 3)));
    inv.observe(obs(1, test::counter("d", 2, "link_downed", 4, 8)));
    inv.observe(obs(1, test::counter("d", 1, "link_downed", 5, 8)));
    Snapshot s;
    inv.fill(s);
    ASSERT_EQ(s.devices.size(), 1u);
    const auto& ports = s.devices[0].ports;
    ASSERT_EQ(ports.size(), 2u);
    EXPECT_EQ(ports[0].ref, (PortRef{"d", 1}));
    EXPECT_EQ(ports[1].ref, (PortRef{"d", 2}));
    std::vector<std::string> names;
    for (const auto& c : ports[1].counters) names.push_back(c.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"link_downed", "symbol_error", "rx_write_requests"}));
    ASSERT_EQ(ports[0].counters.size(), 2u);
    EXPECT_EQ(ports[0].counters[0].name, "link_downed");
    EXPECT_EQ(ports[0].counters[0].raw, 5u);
    EXPECT_EQ(ports[0].counters[1].name, "port_xmit_data");
    EXPECT_EQ(ports[0].counters[1].total, 3u);
}

TEST(Inventory, CounterReadingsLandOnTheirOwnCounterInAnyOrder) {
    Inventory inv;
    inv.observe(obs(1, test::counter("d", 1, "a", 10)));
    inv.observe(obs(1, test::counter("d", 1, "b", 20)));
    inv.observe(obs(1, test::counter("d", 1, "c", 30)));
    // The next round comes in another order, and the same name also counts on another port.
    inv.observe(obs(2, test::counter("d", 1, "c", 31)));
    inv.observe(obs(2, test::counter("d", 2, "a", 7)));
    inv.observe(obs(2, test::counter("d", 1, "a", 15)));
    inv.observe(obs(2, test::counter("d", 1, "b", 22)));
    const auto* a = inv.counter(PortRef{"d", 1}, CounterKind::pma, "a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->total, 15u);
    EXPECT_EQ(inv.counter_name(*a), "a");
    EXPECT_EQ(inv.counter(PortRef{"d", 1}, CounterKind::pma, "c")->total, 31u);
    EXPECT_EQ(inv.counter(PortRef{"d", 2}, CounterKind::pma, "a")->total, 7u);
    EXPECT_EQ(inv.counter(PortRef{"d", 2}, CounterKind::pma, "b"), nullptr);
    EXPECT_EQ(inv.counter(PortRef{"d", 1}, CounterKind::hw, "a"), nullptr);
    EXPECT_EQ(inv.counter(PortRef{"d", 1}, CounterKind::pma, "never"), nullptr);
}

TEST(Inventory, TransportFromNodeTypeAndLinkLayer) {
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "i", .node_type = "RNIC"}, std::nullopt),
              Transport::iwarp);
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "r"}, LinkLayer::ethernet), Transport::roce);
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "m"}, LinkLayer::infiniband), Transport::ib);
}

}  // namespace
}  // namespace rdmadiag::engine
