#include "collector/model/port_ref.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TEST(PortRef, ParsesDeviceAndPort) {
    auto r = parse_port_ref("mlx5_0:1");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->device, "mlx5_0");
    EXPECT_EQ(r->port, 1u);
    EXPECT_EQ(r->to_string(), "mlx5_0:1");
    auto d = parse_port_ref("mlx5_1");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->port, 0u);
}

TEST(PortRef, RejectsBadPorts) {
    EXPECT_FALSE(parse_port_ref("").ok());
    EXPECT_FALSE(parse_port_ref("mlx5_0:").ok());
    EXPECT_FALSE(parse_port_ref(":1").ok());
    EXPECT_FALSE(parse_port_ref("mlx5_0:x").ok());
    EXPECT_FALSE(parse_port_ref("mlx5_0:999").ok());
}

}  // namespace
}  // namespace rdmadiag
