#include "gui/models/node_names.hpp"

#include <gtest/gtest.h>

#include "tests/gui/fat_tree_snapshot.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

TEST(NodeNames, SubnetNodesByDescriptionLocalDevicesByName) {
    Snapshot s = testing::fat_tree_snapshot({2, 1, 2, 1});
    DeviceSnapshot local;
    local.info.device = "mlx5_0";
    local.info.node_desc = "node01 HCA-1";
    s.devices.push_back(local);
    NodeNames names;
    names.set(s);
    const std::string leaf = testing::guid_name(0x0002c90300100002ULL);
    EXPECT_EQ(names.node(leaf), QStringLiteral("Leaf002"));
    EXPECT_EQ(names.port(leaf, 3), QStringLiteral("Leaf002 port 3"));
    EXPECT_EQ(names.with_key(leaf), QStringLiteral("Leaf002 (guid:0x0002c90300100002)"));
    // A local device keeps the name every rdmadiag command takes.
    EXPECT_EQ(names.node("mlx5_0"), QStringLiteral("mlx5_0"));
    EXPECT_EQ(names.with_key("mlx5_0"), QStringLiteral("mlx5_0"));
    // An unknown device reads as its key.
    EXPECT_EQ(names.node("guid:0x00000000000000ff"), QStringLiteral("guid:0x00000000000000ff"));

    FindingSubject subject;
    subject.device = testing::guid_name(0x0c42a10300000002ULL);
    subject.port = 1;
    subject.index = 5;
    subject.pkey = 0x8010;
    EXPECT_EQ(names.subject(subject), QStringLiteral("node0002 HCA-1 port 1 index 5 pkey 0x8010"));
    // A partition's finding names its P_Key alone.
    FindingSubject partition;
    partition.pkey = 0x0011;
    EXPECT_EQ(names.subject(partition), QStringLiteral("pkey 0x0011"));

    DeviceSnapshot renamed = s.devices.front();
    renamed.info.node_desc = "Leaf001-new";
    names.update(renamed);
    EXPECT_EQ(names.node(renamed.info.device), QStringLiteral("Leaf001-new"));
    names.remove(renamed.info.device);
    EXPECT_EQ(names.node(renamed.info.device), QString::fromStdString(renamed.info.device));
}

}  // namespace
}  // namespace rdmadiag::gui::models
