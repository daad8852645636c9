#include <gtest/gtest.h>

#include "cli/render/counters_render.hpp"
#include "cli/render/events_render.hpp"
#include "cli/render/pkeys_render.hpp"
#include "cli/render/status_render.hpp"
#include "cli/render/table.hpp"
#include "tests/cli/render/sample_snapshot.hpp"

namespace rdmadiag::cli::render {
namespace {

TEST(Table, AlignsColumnsAndTrimsTrailingSpace) {
    Table t({{"NAME"}, {"N", Align::right}, {"NOTE"}});
    t.add_row({"a", "1", ""});
    t.add_row({"longer", "100", "x"});
    EXPECT_EQ(t.render(),
              "NAME      N  NOTE\n"
              "a         1\n"
              "longer  100  x\n");
}

TEST(StatusRender, GoldenText) {
    const auto text = render_status_text(test::sample_snapshot(), "sysfs at /sys");
    EXPECT_EQ(text,
              "rdmadiag status at 2025-12-02T14:30:00.000Z (sysfs at /sys)\n"
              "\n"
              "DEVICE  NAME  TYPE  TRANSPORT  FIRMWARE    NODE GUID           PORTS\n"
              "mlx5_0  -     CA    ib         20.31.1014  0x0002c90300001234      1\n"
              "\n"
              "PORT      STATE   LINK  LID  RATE        PKEYS  GIDS  VIOLATIONS  ERRORS\n"
              "mlx5_0:1  ACTIVE  IB      3  100 Gb/sec    3/4  -           300*       4\n"
              "* a counter is saturated: new P_Key violations are no longer counted\n"
              "\n"
              "MR health: not judged, no source sees MR completions:\n"
              "  tracefs: not used\n"
              "  probe: not used by one-shot commands (rdmadiag serve listens)\n"
              "\n"
              "Findings: 1 (1 critical, 0 warning, 0 info)\n"
              "SEVERITY  RULE              SUBJECT   SINCE\n"
              "critical  pkey.cache_stale  mlx5_0:1  20.0s ago\n"
              "\n"
              "Sources: sysfs up, 1 unreadable values; verbs down (no RDMA devices)\n");
    for (size_t pos = 0, next; pos < text.size(); pos = next + 1) {
        next = text.find('\n', pos);
        EXPECT_LE(next - pos, 80u) << text.substr(pos, next - pos);
    }
}

TEST(PKeysRender, ViewsSideBySideWithDisagreementMarked) {
    const auto text = render_pkeys_text(test::sample_snapshot(), {});
    EXPECT_EQ(text,
              "mlx5_0:1\n"
              "  device  generation 2  3/4 used  changed 14:29:10\n"
              "  cache   generation 1  3/4 used  changed 14:28:30\n"
              "INDEX  DEVICE          CACHE\n"
              "    0  0xffff full     0xffff full\n"
              "   *1  -               0x8001 full\n"
              "   *2  0x8001 full     -\n"
              "    3  0x0002 limited  0x0002 limited\n");
    PKeysRenderOptions other;
    other.filter = PortRef{"mlx5_1", 0};
    EXPECT_EQ(render_pkeys_text(test::sample_snapshot(), other), "No port matches.\n");
    const auto j = render_pkeys_json(test::sample_snapshot(), {});
    EXPECT_EQ(j["ports"][0]["pkeys"]["views"][1]["view"], "cache");
}

TEST(CountersRender, WidthSaturationAndResets) {
    const auto text = render_counters_text(test::sample_snapshot(), {});
    EXPECT_EQ(text,
              "mlx5_0:1:\n"
              "COUNTER                     KIND  BITS  VALUE  TOTAL  NOTE\n"
              "port_rcv_constraint_errors  pma      8    255    300  saturated, 1 reset\n"
              "symbol_error                pma     16      4      4\n");
    CountersRenderOptions hw;
    hw.include_hw = true;
    EXPECT_NE(render_counters_text(test::sample_snapshot(), hw).find("rx_write_requests"),
              std::string::npos);
}

TEST(EventsRender, TableAndLines) {
    const auto s = test::sample_snapshot();
    EXPECT_EQ(render_events_text(s.events),
              "TIME                      SOURCE  DEVICE  PORT  EVENT        ELEMENT\n"
              "2025-12-02T14:29:20.000Z  verbs   mlx5_0     1  PORT_ACTIVE  -\n");
    EXPECT_EQ(render_events_text({}), "No async events seen.\n");
    EXPECT_EQ(render_events_json(s.events)["events"][0]["type"], "PORT_ACTIVE");
}

}  // namespace
}  // namespace rdmadiag::cli::render
