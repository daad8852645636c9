#include "cli/render/gid_diff_render.hpp"

#include <gtest/gtest.h>

#include "tests/cli/render/sample_snapshot.hpp"

namespace rdmadiag::cli::render {
namespace {

Gid gid(const char* text) {
    return *parse_gid(text);
}

GidDiff sma_change() {
    GidDiff d;
    d.port = PortRef{"mlx5_0", 1};
    d.view = GidView::sma;
    d.old_generation = 1;
    d.new_generation = 2;
    d.time = test::at_s(50);
    d.removed = {GidEntry{0, gid("fe80::1"), GidType::ib, {}},
                 GidEntry{3, gid("fe80::3"), GidType::ib, {}}};
    d.added = {GidEntry{0, gid("fec0::1"), GidType::ib, {}},
               GidEntry{4, gid("fe80::4"), GidType::ib, {}}};
    return d;
}

TEST(GidDiffRender, IndexedViewIndexByIndex) {
    EXPECT_EQ(render_gid_diff(sma_change()),
              "mlx5_0:1  sma generation 1 -> 2  at 2025-12-02T14:29:10.000Z\n"
              "      0  changed  fe80:0000:0000:0000:0000:0000:0000:0001 -> "
              "fec0:0000:0000:0000:0000:0000:0000:0001\n"
              "      3  removed  fe80:0000:0000:0000:0000:0000:0000:0003\n"
              "      4  added    fe80:0000:0000:0000:0000:0000:0000:0004\n");
}

TEST(GidDiffRender, NetdevViewByAddress) {
    GidDiff d;
    d.port = PortRef{"rxe0", 1};
    d.view = GidView::netdev;
    d.old_generation = 4;
    d.new_generation = 5;
    d.time = test::at_s(50);
    d.removed = {GidEntry{1, gid("::ffff:192.0.2.10"), GidType::unknown, "eth0"}};
    d.added = {GidEntry{1, gid("2001:db8::10"), GidType::unknown, "eth0"}};
    const auto text = render_gid_diff(d);
    EXPECT_NE(text.find("\n  removed  0000:0000:0000:0000:0000:ffff:c000:020a  "),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\n  added    2001:0db8:0000:0000:0000:0000:0000:0010  "),
              std::string::npos)
        << text;
    // The netdev view's order is no index: none is shown, and nothing reads as "changed".
    EXPECT_EQ(text.find("changed"), std::string::npos) << text;
}

TEST(GidDiffRender, PortsWithAndWithoutChangesAndTheirCache) {
    auto s = test::sample_snapshot();
    auto& port = s.devices[0].ports[0];
    PortGidState g;
    GidViewState v;
    v.view = GidView::sma;
    v.table.entries.push_back(GidEntry{0, gid("fec0::1"), GidType::ib, {}});
    g.views.push_back(v);
    g.coherence = GidCoherence::stale;
    g.note = "the cache's prefix differs from the port's";
    g.last_changes = {sma_change()};
    port.gids = g;
    const auto text = render_gid_diffs_text(s, {});
    EXPECT_NE(text.find("mlx5_0:1  sma generation 1 -> 2"), std::string::npos) << text;
    EXPECT_NE(text.find("  cache: stale (the cache's prefix differs from the port's)\n"),
              std::string::npos)
        << text;
    auto j = render_gid_diffs_json(s, {});
    EXPECT_EQ(j["ports"][0]["coherence"], "stale");
    EXPECT_EQ(j["ports"][0]["last_changes"][0]["new_generation"], 2);

    g.last_changes.clear();
    port.gids = g;
    EXPECT_EQ(render_gid_diffs_text(s, {}).substr(0, 25), "mlx5_0:1  no change seen\n");
    EXPECT_TRUE(render_gid_diffs_json(s, {})["ports"][0]["last_changes"].empty());
    EXPECT_EQ(render_gid_diffs_text(s, PortRef{"mlx5_9", 0}), "no GIDs read\n");
}

}  // namespace
}  // namespace rdmadiag::cli::render
