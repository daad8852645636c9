#include "cli/render/mrs_render.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::cli::render {
namespace {

TimePoint at(int s) {
    return TimePoint{std::chrono::seconds(s)};
}

Snapshot snapshot() {
    Snapshot s;
    s.time = at(100);
    MrRecord a;
    a.device = "mlx5_0";
    a.mr = 17;
    a.key = 0x1204;
    a.owner = MrOwner{std::nullopt, "xprtrdma"};
    a.state = MrState::stuck;
    a.state_since = at(88);
    a.last_op = MrOp::fastreg;
    a.last_status = WcStatus::mw_bind_err;
    a.source = "tracefs";
    a.advice = "kernel ULP xprtrdma must deregister this MR";
    MrRecord b;
    b.device = "mlx5_0";
    b.mr = 18;
    b.owner = MrOwner{4242, "fio"};
    b.state = MrState::valid;
    b.state_since = at(99);
    s.mrs.mrs = {a, b};
    MrDeviceHealth d;
    d.device = "mlx5_0";
    d.by_state = {{MrState::stuck, 1}, {MrState::valid, 1}};
    d.bind_errors = 1;
    s.mrs.devices = {d};
    Finding f;
    f.rule = "mr.needs_dereg";
    f.severity = Severity::critical;
    f.subject.device = "mlx5_0";
    f.subject.mr = 17;
    s.findings = {f};
    return s;
}

TEST(MrsRender, TextListsMrsAdviceAndCounts) {
    std::string t = render_mrs_text(snapshot(), "test", {});
    EXPECT_NE(t.find("stuck"), std::string::npos);
    EXPECT_NE(t.find("12.0s"), std::string::npos);  // time in state
    EXPECT_NE(t.find("FASTREG MW_BIND_ERR"), std::string::npos);
    EXPECT_NE(t.find("fio[4242]"), std::string::npos);
    EXPECT_NE(t.find("0x1204"), std::string::npos);
    EXPECT_NE(t.find("Advice:\n  mlx5_0 mr 17 (stuck): kernel ULP xprtrdma"), std::string::npos);
    EXPECT_NE(t.find("MR findings: 1"), std::string::npos);
}

TEST(MrsRender, StateFilter) {
    MrsFilter f;
    f.state = MrState::valid;
    std::string t = render_mrs_text(snapshot(), "test", f);
    EXPECT_EQ(t.find("MW_BIND_ERR"), std::string::npos);
    EXPECT_NE(t.find("fio[4242]"), std::string::npos);
    f.state = MrState::unknown;
    EXPECT_NE(render_mrs_text(snapshot(), "test", f).find("No MRs in state unknown."),
              std::string::npos);
    auto j = render_mrs_json(snapshot(), "test", MrsFilter{MrState::stuck});
    ASSERT_EQ(j["mrs"].size(), 1u);
    EXPECT_EQ(j["mrs"][0]["mr"], 17);
    EXPECT_EQ(j["findings"][0]["rule"], "mr.needs_dereg");
    EXPECT_EQ(j["devices"][0]["by_state"]["stuck"], 1);
}

TEST(MrsRender, NothingSeenSaysWhere) {
    Snapshot s;
    EXPECT_NE(render_mrs_text(s, "x", {}).find("No MRs seen"), std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::cli::render
