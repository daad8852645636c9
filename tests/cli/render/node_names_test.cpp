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

// Tables show a described subnet node by its NodeDescription (collector/model/node_names.hpp).
TEST(NodeNames, StatusShowsTheNameBesideTheKey) {
    auto text = render_status_text(subnet(), "test");
    EXPECT_NE(text.find("Leaf017:3"), std::string::npos) << text;
    EXPECT_NE(text.find("guid:0x0008f10400000001"), std::string::npos) << "the key stays";
}

}  // namespace
}  // namespace rdmadiag::cli::render
