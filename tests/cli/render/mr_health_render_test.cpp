#include "cli/render/mr_health_render.hpp"

#include <gtest/gtest.h>

#include "cli/render/check_render.hpp"
#include "cli/render/status_render.hpp"
#include "tests/cli/render/sample_snapshot.hpp"

namespace rdmadiag::cli::render {
namespace {

MrRecord mr(uint64_t id, MrState state) {
    MrRecord r;
    r.device = "mlx5_0";
    r.mr = id;
    r.state = state;
    return r;
}

TEST(MrHealthRender, NoCompletionSourceUpIsNotJudgedAndSaysWhy) {
    auto s = test::sample_snapshot();
    s.findings.clear();
    s.sources.push_back(SourceSnapshot{"tracefs", false, "cannot open /t/trace: denied", 0, 0, {}});
    s.sources.push_back(SourceSnapshot{"netlink", true, "", 1, 0, {}});
    const auto c = mr_health_coverage(s);
    EXPECT_FALSE(c.judged);
    EXPECT_EQ(c.from, std::vector<std::string>{"netlink"});
    EXPECT_EQ(render_mr_health_line(s),
              "MR health: not judged, no source sees MR completions:\n"
              "  tracefs: cannot open /t/trace: denied\n"
              "  probe: not used by one-shot commands (rdmadiag serve listens)\n"
              "  netlink: up, but it lists MRs without their state\n");
    EXPECT_NE(render_status_text(s, "x").find("MR health: not judged"), std::string::npos);
    EXPECT_EQ(render_status_json(s, "x")["mr_health"]["judged"], false);
    const auto r = evaluate_check(s);
    EXPECT_EQ(r.status, CheckStatus::ok);
    EXPECT_NE(r.summary.find("no findings; MR health not judged |"), std::string::npos)
        << r.summary;
}

TEST(MrHealthRender, TracefsUpJudgesAndCountsByState) {
    auto s = test::sample_snapshot();
    s.sources.push_back(SourceSnapshot{"tracefs", true, "", 9, 0, {}});
    s.mrs.mrs = {mr(17, MrState::stuck), mr(18, MrState::invalid), mr(19, MrState::stuck)};
    EXPECT_TRUE(mr_health_coverage(s).judged);
    EXPECT_EQ(render_mr_health_line(s), "MR health: 3 MRs: 1 invalid, 2 stuck (from tracefs)\n");
    const auto r = evaluate_check(s);
    EXPECT_EQ(r.summary.find("not judged"), std::string::npos) << r.summary;
    EXPECT_NE(r.summary.find("mrs_stuck=2;;;0 mrs_unknown=0;;;0"), std::string::npos) << r.summary;
}

TEST(MrHealthRender, AProbeThatIsUpJudgesEvenWithoutTracefs) {
    auto s = test::sample_snapshot();
    s.sources.push_back(SourceSnapshot{"tracefs", false, "not mounted", 0, 0, {}});
    s.sources.push_back(SourceSnapshot{"probe", true, "", 3, 0, {}});
    EXPECT_TRUE(mr_health_coverage(s).judged);
    EXPECT_EQ(render_mr_health_line(s), "MR health: no MRs seen (from probe)\n");
}

}  // namespace
}  // namespace rdmadiag::cli::render
