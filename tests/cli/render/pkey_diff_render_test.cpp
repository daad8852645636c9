#include "cli/render/pkey_diff_render.hpp"

#include <gtest/gtest.h>

#include "tests/cli/render/sample_snapshot.hpp"

namespace rdmadiag::cli::render {
namespace {

PKeyDiff sample_diff() {
    PKeyDiff d;
    d.port = PortRef{"mlx5_0", 1};
    d.old_generation = 1;
    d.new_generation = 2;
    d.time = test::at_s(50);
    d.changes = {{PKeyChangeKind::moved, 2, 1, 0x8001, 0x8001},
                 {PKeyChangeKind::added, 4, std::nullopt, 0, 0x8004},
                 {PKeyChangeKind::membership_changed, 5, std::nullopt, 0x8005, 0x0005},
                 {PKeyChangeKind::removed, 6, std::nullopt, 0x0006, 0}};
    return d;
}

TEST(PKeyDiffRender, ChangeIndexByIndex) {
    EXPECT_EQ(render_pkey_diff(sample_diff()),
              "mlx5_0:1  device generation 1 -> 2  at 2025-12-02T14:29:10.000Z\n"
              "      2  moved    0x8001 from index 1\n"
              "      4  added    0x8004 full\n"
              "      5  member   0x8005 full -> 0x0005 limited\n"
              "      6  removed  0x0006 limited\n");
}

TEST(PKeyDiffRender, PortsWithAndWithoutChangesAndTheirCache) {
    auto s = test::sample_snapshot();
    auto& pk = s.devices[0].ports[0].pkeys;
    pk.last_diff = sample_diff();
    pk.cache = CacheJudgement::stale;
    pk.cache_note = "differs from device with no PKEY_CHANGE delivered";
    const auto text = render_pkey_diffs_text(s, {});
    EXPECT_NE(text.find("      2  moved    0x8001 from index 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  cache: stale (differs from device with no PKEY_CHANGE delivered)\n"),
              std::string::npos)
        << text;
    pk.last_diff.reset();
    EXPECT_EQ(render_pkey_diffs_text(s, {}).substr(0, 25), "mlx5_0:1  no change seen\n");
    const auto j = render_pkey_diffs_json(s, {});
    EXPECT_EQ(j["ports"][0]["cache"], "stale");
    EXPECT_TRUE(j["ports"][0]["last_diff"].is_null());
    PKeysRenderOptions other;
    other.filter = PortRef{"mlx5_9", 0};
    EXPECT_EQ(render_pkey_diffs_text(s, other), "no P_Key tables\n");
}

}  // namespace
}  // namespace rdmadiag::cli::render
