#include "collector/common/time.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::common {
namespace {

TEST(Time, FormatsAndParsesRfc3339) {
    auto t = parse_time("2026-12-02T14:29:06.123Z");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(format_time(*t), "2026-12-02T14:29:06.123Z");
    EXPECT_EQ(t->time_since_epoch().count() % 1'000'000'000, 123'000'000);
}

TEST(Time, RejectsNonUtcAndGarbage) {
    EXPECT_FALSE(parse_time("2026-12-02T14:29:06+01:00").ok());
    EXPECT_FALSE(parse_time("2026-13-02T14:29:06Z").ok());
    EXPECT_FALSE(parse_time("yesterday").ok());
    EXPECT_FALSE(parse_time("").ok());
    EXPECT_FALSE(parse_time("2026-12-02T14:29:06.Z").ok());
}

// RFC 3339 names years 0000..9999; a TimePoint (64-bit nanoseconds) holds 1678..2261. Times
// outside are refused instead of overflowing.
TEST(Time, RefusesYearsATimePointCannotHold) {
    EXPECT_FALSE(parse_time("1012-12-02T14:29:06Z").ok());
    EXPECT_FALSE(parse_time("9999-12-31T23:59:59.999999999Z").ok());
    EXPECT_FALSE(parse_time("0000-01-01T00:00:00Z").ok());
    auto early = parse_time("1700-01-01T00:00:00Z");
    ASSERT_TRUE(early.ok()) << early.error().message;
    EXPECT_EQ(format_time(*early), "1700-01-01T00:00:00.000Z");
    auto late = parse_time("2262-04-11T00:00:00.5Z");
    ASSERT_TRUE(late.ok()) << late.error().message;
    EXPECT_EQ(format_time(*late), "2262-04-11T00:00:00.500Z");
}

TEST(Duration, ParsesUnits) {
    EXPECT_EQ(*parse_duration("250ms"), std::chrono::milliseconds(250));
    EXPECT_EQ(*parse_duration("5s"), std::chrono::seconds(5));
    EXPECT_EQ(*parse_duration("30"), std::chrono::seconds(30));
    EXPECT_EQ(*parse_duration("1.5s"), std::chrono::milliseconds(1500));
    EXPECT_EQ(*parse_duration("2m"), std::chrono::minutes(2));
    EXPECT_FALSE(parse_duration("5 parsecs").ok());
    EXPECT_FALSE(parse_duration("-1s").ok());
    EXPECT_FALSE(parse_duration("").ok());
    EXPECT_FALSE(parse_duration("1e300h").ok());
}

TEST(Duration, FormatsForHumans) {
    EXPECT_EQ(format_duration(std::chrono::milliseconds(850)), "850ms");
    EXPECT_EQ(format_duration(std::chrono::milliseconds(12500)), "12.5s");
    EXPECT_EQ(format_duration(std::chrono::seconds(200)), "3m20s");
    EXPECT_EQ(format_duration(std::chrono::minutes(125)), "2h05m");
}

}  // namespace
}  // namespace rdmadiag::common
