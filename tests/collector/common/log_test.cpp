#include "collector/common/log.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::common {
namespace {

TimePoint t0() {
    return *parse_time("2026-12-02T14:29:06.123Z");
}

TEST(Log, LogfmtQuotesOnlyWhatNeedsIt) {
    auto line = format_log_record(LogFormat::logfmt, t0(), LogLevel::warn, "source unavailable",
                                  {{"source", "sysfs"}, {"reason", "no \"RDMA\" device"}});
    EXPECT_EQ(line,
              "ts=2026-12-02T14:29:06.123Z level=warn msg=\"source unavailable\" source=sysfs "
              "reason=\"no \\\"RDMA\\\" device\"");
}

TEST(Log, LogfmtEscapesNewlinesAndShowsEmptyValues) {
    auto line = format_log_record(LogFormat::logfmt, t0(), LogLevel::info, "x",
                                  {{"a", "line1\nline2"}, {"b", ""}});
    EXPECT_EQ(line, "ts=2026-12-02T14:29:06.123Z level=info msg=x a=\"line1\\nline2\" b=\"\"");
}

TEST(Log, JsonIsOneObjectPerLine) {
    auto line = format_log_record(LogFormat::json, t0(), LogLevel::error, "bad \"thing\"",
                                  {{"path", "/a\tb"}});
    EXPECT_EQ(line,
              "{\"ts\":\"2026-12-02T14:29:06.123Z\",\"level\":\"error\",\"msg\":\"bad "
              "\\\"thing\\\"\",\"path\":\"/a\\tb\"}");
}

TEST(Log, RecordsBelowTheLevelAreDropped) {
    std::vector<std::string> lines;
    ManualClock clock(t0());
    Logger log(
        LogLevel::info, LogFormat::logfmt, [&](std::string_view l) { lines.emplace_back(l); },
        &clock);
    log.debug("hidden");
    log.info("shown", {{"k", "v"}});
    log.set_level(LogLevel::debug);
    log.debug("now shown");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "ts=2026-12-02T14:29:06.123Z level=info msg=shown k=v");
    EXPECT_TRUE(log.enabled(LogLevel::debug));
}

TEST(Log, ParsesLevelsAndFormats) {
    EXPECT_EQ(parse_log_level("warn"), LogLevel::warn);
    EXPECT_EQ(parse_log_level("warning"), LogLevel::warn);
    EXPECT_FALSE(parse_log_level("loud"));
    EXPECT_EQ(parse_log_format("json"), LogFormat::json);
    EXPECT_FALSE(parse_log_format("xml"));
}

}  // namespace
}  // namespace rdmadiag::common
