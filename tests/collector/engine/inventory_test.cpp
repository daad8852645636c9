#include "collector/engine/inventory.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag {
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

TEST(Inventory, TransportFromNodeTypeAndLinkLayer) {
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "i", .node_type = "RNIC"}, std::nullopt),
              Transport::iwarp);
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "r"}, LinkLayer::ethernet), Transport::roce);
    EXPECT_EQ(infer_transport(DeviceInfo{.device = "m"}, LinkLayer::infiniband), Transport::ib);
}

}  // namespace
}  // namespace rdmadiag
