#include "collector/model/node_names.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

namespace rdmadiag {
namespace {

DeviceSnapshot device(std::string name, std::optional<std::string> desc) {
    DeviceSnapshot d;
    d.info.device = std::move(name);
    d.info.node_desc = std::move(desc);
    return d;
}

// A described switch, a local device with a description of its own, a nameless subnet node.
Snapshot subnet() {
    Snapshot s;
    s.devices = {device("guid:0x0008f10400000001", "Leaf017"), device("mlx5_0", "node01 mlx5_0"),
                 device("guid:0x0008f10400000002", std::nullopt)};
    return s;
}

TEST(NodeNames, SubnetNodesByTheirDescriptionLocalDevicesByTheirOwnName) {
    const NodeNames names(subnet());
    EXPECT_EQ(names.node("guid:0x0008f10400000001"), "Leaf017");
    EXPECT_EQ(names.node("mlx5_0"), "mlx5_0");
    EXPECT_EQ(names.node("guid:0x0008f10400000002"), "guid:0x0008f10400000002")
        << "no description: the key is all there is";
    EXPECT_EQ(names.node("unknown"), "unknown");
    EXPECT_EQ(names.port({"guid:0x0008f10400000001", 3}), "Leaf017:3");
    EXPECT_EQ(names.port_with_key({"guid:0x0008f10400000001", 3}),
              "Leaf017:3 (guid:0x0008f10400000001:3)");
    EXPECT_EQ(names.port_with_key({"mlx5_0", 1}), "mlx5_0:1");
    FindingSubject subject;
    subject.device = "guid:0x0008f10400000001";
    subject.port = 3;
    subject.index = 2;
    EXPECT_EQ(names.subject(subject), "Leaf017:3 index 2");
}

TEST(NodeNames, FollowsDevicesAsTheyChange) {
    NodeNames names(subnet());
    DeviceSnapshot renamed = device("guid:0x0008f10400000001", "Leaf017-new");
    names.update(renamed);
    EXPECT_EQ(names.node(renamed.info.device), "Leaf017-new");
    renamed.info.node_desc = "";
    names.update(renamed);
    EXPECT_EQ(names.find(renamed.info.device), nullptr) << "an empty description names nothing";
    names.update(subnet().devices.front());
    names.remove(renamed.info.device);
    EXPECT_EQ(names.node(renamed.info.device), renamed.info.device);
}

TEST(NodeNames, GuidNames) {
    EXPECT_EQ(guid_device_name(0x0002c90300001234), "guid:0x0002c90300001234");
    EXPECT_TRUE(is_guid_name("guid:0x0002c90300001234"));
    EXPECT_FALSE(is_guid_name("mlx5_0"));
    EXPECT_TRUE(is_exact_guid_name(guid_device_name(0xffffffffffffffff)));
    EXPECT_FALSE(is_exact_guid_name("guid:0x0002C90300001234"));
    EXPECT_FALSE(is_exact_guid_name("guid:0x2c90300001234"));
    EXPECT_FALSE(is_exact_guid_name("guid:2c90300001234abc"));
}

}  // namespace
}  // namespace rdmadiag
