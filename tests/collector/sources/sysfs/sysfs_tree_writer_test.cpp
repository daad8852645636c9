#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>

#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::test {
namespace {

namespace fs = std::filesystem;

TEST(SysfsTreeWriter, WritesTheRequestedShape) {
    TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    SysfsTreeSpec spec;
    spec.devices = 3;
    spec.ports = 2;
    spec.pkeys = 64;
    spec.hw_counters = false;
    ASSERT_TRUE(write_sysfs_tree(tmp.path(), spec).ok());
    const fs::path ib = fs::path(tmp.path()) / "class/infiniband";
    EXPECT_TRUE(fs::exists(ib / "mlx5_2/ports/2/pkeys/63"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_2/ports/2/pkeys/64"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_3"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_0/ports/3"));
    EXPECT_TRUE(fs::exists(ib / "mlx5_0/ports/1/counters/port_rcv_constraint_errors"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_0/ports/1/hw_counters"));
}

TEST(SysfsTreeWriter, Mlx4DevicesHaveCountersExtAndNo64BitCountersFiles) {
    TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    SysfsTreeSpec spec;
    spec.devices = 1;
    spec.mlx4_devices = 2;
    spec.pkeys = 4;
    ASSERT_TRUE(write_sysfs_tree(tmp.path(), spec).ok());
    const fs::path ib = fs::path(tmp.path()) / "class/infiniband";
    EXPECT_TRUE(fs::exists(ib / "mlx5_0/ports/1/counters/unicast_xmit_packets"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_0/ports/1/counters_ext"));
    for (const char* dev : {"mlx4_0", "mlx4_1"}) {
        EXPECT_TRUE(fs::exists(ib / dev / "ports/2/counters_ext/port_xmit_data_64")) << dev;
        EXPECT_TRUE(fs::exists(ib / dev / "ports/2/counters/port_xmit_data")) << dev;
        EXPECT_FALSE(fs::exists(ib / dev / "ports/2/counters/unicast_xmit_packets")) << dev;
        EXPECT_FALSE(fs::exists(ib / dev / "ports/2/hw_counters")) << dev;
    }
    EXPECT_FALSE(fs::exists(ib / "mlx4_2"));
}

TEST(SysfsTreeWriter, ReplacesItsOwnTreeButNeverAnotherOne) {
    TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    SysfsTreeSpec spec;
    spec.devices = 2;
    spec.pkeys = 4;
    ASSERT_TRUE(write_sysfs_tree(tmp.path(), spec).ok());
    spec.devices = 1;
    ASSERT_TRUE(write_sysfs_tree(tmp.path(), spec).ok());
    EXPECT_FALSE(fs::exists(fs::path(tmp.path()) / "class/infiniband/mlx5_1"));

    TempTree other;
    ASSERT_TRUE(other.ok());
    other.add_fixture("rxe-roce");
    auto refused = write_sysfs_tree(other.path(), spec);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, EEXIST);
    EXPECT_TRUE(fs::exists(fs::path(other.path()) / "class/infiniband/rxe0/node_guid"));
}

}  // namespace
}  // namespace rdmadiag::test
