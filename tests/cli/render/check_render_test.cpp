#include "cli/render/check_render.hpp"

#include <gtest/gtest.h>

#include "tests/cli/render/sample_snapshot.hpp"

namespace rdmadiag::cli::render {
namespace {

Finding finding(const char* rule, Severity sev) {
    Finding f;
    f.rule = rule;
    f.severity = sev;
    f.subject = FindingSubject{"mlx5_0", 1, {}, {}, {}};
    f.since = test::at_s(5);
    f.evidence = "evidence";
    return f;
}

TEST(CheckRender, CriticalFindingIsCriticalWithPerfdata) {
    auto s = test::sample_snapshot();
    s.devices[0].ports[0].pkeys.cache = CacheJudgement::stale;
    const auto r = evaluate_check(s);
    EXPECT_EQ(r.status, CheckStatus::critical);
    EXPECT_EQ(r.exit_code(), 2);
    EXPECT_EQ(r.summary,
              "RDMADIAG CRITICAL - 1 critical, 0 warning, 0 info: pkey.cache_stale on mlx5_0:1; MR "
              "health not judged | critical=1;;;0 warning=0;;;0 info=0;;;0 ports=1;;;0 "
              "stale_caches=1;;;0 unjudged_caches=0;;;0 pkey_changes=0;;;0 mrs_stuck=0;;;0 "
              "mrs_unknown=0;;;0");
    EXPECT_NE(r.details.find("critical pkey.cache_stale mlx5_0:1 since"), std::string::npos);
}

TEST(CheckRender, WarningsOnlyAreWarning) {
    auto s = test::sample_snapshot();
    s.findings = {finding("pkey.index_moved", Severity::warning)};
    EXPECT_EQ(evaluate_check(s).status, CheckStatus::warning);
}

TEST(CheckRender, InfoAloneIsOkUnlessAskedOtherwise) {
    auto s = test::sample_snapshot();
    s.findings = {finding("pkey.spurious_event", Severity::info)};
    EXPECT_EQ(evaluate_check(s).status, CheckStatus::ok);
    CheckOptions strict;
    strict.info_is_ok = false;
    EXPECT_EQ(evaluate_check(s, strict).status, CheckStatus::warning);
}

TEST(CheckRender, NoFindingsIsOk) {
    auto s = test::sample_snapshot();
    s.findings.clear();
    const auto r = evaluate_check(s);
    EXPECT_EQ(r.status, CheckStatus::ok);
    EXPECT_EQ(r.summary.substr(0, r.summary.find(" |")),
              "RDMADIAG OK - 1 port, no findings; MR health not judged");
    EXPECT_TRUE(r.details.empty());
}

TEST(CheckRender, NothingSeenIsUnknownWithTheReason) {
    Snapshot s;
    s.sources.push_back(SourceSnapshot{"sysfs", false, "no /sys/class/infiniband", 0, 0, {}});
    const auto r = evaluate_check(s);
    EXPECT_EQ(r.status, CheckStatus::unknown);
    EXPECT_EQ(r.exit_code(), 3);
    EXPECT_NE(r.summary.find("no source could read anything; sysfs: no /sys/class/infiniband"),
              std::string::npos)
        << r.summary;
}

}  // namespace
}  // namespace rdmadiag::cli::render
