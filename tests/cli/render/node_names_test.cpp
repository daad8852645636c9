#include "cli/render/node_names.hpp"

#include <gtest/gtest.h>

#include "cli/render/status_render.hpp"

namespace rdmadiag::cli::render {
namespace {

Snapshot subnet() {
    Snapshot s;
    DeviceSnapshot leaf;
    leaf.info.device = "guid:0x0008f10400000001";
    leaf.info.node_desc = "Leaf017";
    leaf.info.node_type = "switch";
    PortSnapshot p;
    p.ref = {leaf.info.device, 3};
    p.info.state = PortState::active;
    leaf.ports.push_back(p);
    DeviceSnapshot local;
    local.info.device = "mlx5_0";
    local.info.node_desc = "node01 mlx5_0";
    DeviceSnapshot nameless;
    nameless.info.device = "guid:0x0008f10400000002";
    s.devices = {leaf, local, nameless};
    return s;
}

TEST(NodeNames, SubnetNodesByTheirDescriptionLocalDevicesByTheirOwnName) {
    const NodeNames names(subnet());
    EXPECT_EQ(names.device("guid:0x0008f10400000001"), "Leaf017");
    EXPECT_EQ(names.device("mlx5_0"), "mlx5_0");
    EXPECT_EQ(names.device("guid:0x0008f10400000002"), "guid:0x0008f10400000002")
        << "no description: the key is all there is";
    EXPECT_EQ(names.device("unknown"), "unknown");
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

TEST(NodeNames, StatusShowsTheNameBesideTheKey) {
    auto text = render_status_text(subnet(), "test");
    EXPECT_NE(text.find("Leaf017:3"), std::string::npos) << text;
    EXPECT_NE(text.find("guid:0x0008f10400000001"), std::string::npos) << "the key stays";
}

}  // namespace
}  // namespace rdmadiag::cli::render
