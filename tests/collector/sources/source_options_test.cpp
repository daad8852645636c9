// How declared source options read their values, fill their defaults and refuse what their source
// would not take, in the source's words.

#include "collector/sources/source_options.hpp"

#include <gtest/gtest.h>

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::sources {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr std::string_view kModes[] = {"fast", "slow", "off"};

Result<void> needs_fast(const OptionValue& v, const SourceSettings& s) {
    if (std::get<bool>(v) && s.options.text("demo.mode") != "fast")
        return make_error("demo.turbo needs demo.mode=fast");
    return {};
}

constexpr OptionSpec kDemo[] = {
    {.key = "demo.mode",
     .type = OptionType::choice,
     .help = "how",
     .default_text = "slow",
     .choices = kModes},
    {.key = "demo.count", .type = OptionType::integer, .help = "how many", .min = 1, .max = 64},
    {.key = "demo.wait",
     .type = OptionType::duration,
     .help = "how long",
     .min_duration = milliseconds(5)},
    {.key = "demo.turbo", .type = OptionType::boolean, .help = "faster", .check = needs_fast},
    {.key = "demo.file", .type = OptionType::path, .help = "where"},
    {.key = "demo.guid", .type = OptionType::guid, .help = "whose", .min = 1},
    {.key = "demo.mode_bits", .type = OptionType::integer, .help = "mode", .max = 0777, .base = 8},
    {.key = "demo.since", .type = OptionType::time, .help = "when"},
};

const OptionSpec& spec(std::string_view key) {
    for (const auto& s : kDemo) {
        if (s.key == key) return s;
    }
    throw std::logic_error("no such spec");
}

std::string refused(std::string_view key, std::string_view text) {
    auto v = parse_option(spec(key), text);
    return v ? std::string("accepted") : v.error().message;
}

TEST(SourceOptions, EachTypeReadsItsValues) {
    EXPECT_EQ(std::get<std::string>(*parse_option(spec("demo.mode"), "fast")), "fast");
    EXPECT_EQ(std::get<uint64_t>(*parse_option(spec("demo.count"), "0x10")), 16u);
    EXPECT_EQ(std::get<uint64_t>(*parse_option(spec("demo.count"), "64")), 64u);
    EXPECT_EQ(std::get<Duration>(*parse_option(spec("demo.wait"), "5ms")), milliseconds(5));
    EXPECT_TRUE(std::get<bool>(*parse_option(spec("demo.turbo"), "on")));
    EXPECT_FALSE(std::get<bool>(*parse_option(spec("demo.turbo"), "false")));
    EXPECT_EQ(std::get<uint64_t>(*parse_option(spec("demo.guid"), "010")), 8u)
        << "as opensm reads a GUID: a leading 0 is octal";
    EXPECT_EQ(std::get<uint64_t>(*parse_option(spec("demo.mode_bits"), "0640")), 0640u);
    EXPECT_EQ(std::get<TimePoint>(*parse_option(spec("demo.since"), "2026-01-01T00:00:00Z")),
              *parse_time("2026-01-01T00:00:00Z"));
}

TEST(SourceOptions, EachTypeSaysWhatItWants) {
    EXPECT_EQ(refused("demo.mode", "quick"), "demo.mode must be fast, slow or off, not 'quick'");
    EXPECT_EQ(refused("demo.count", "0"), "demo.count must be a number 1..64, not '0'");
    EXPECT_EQ(refused("demo.count", "65"), "demo.count must be a number 1..64, not '65'");
    EXPECT_EQ(refused("demo.count", "-1"), "demo.count must be a number 1..64, not '-1'");
    EXPECT_EQ(refused("demo.wait", "1ms"),
              "demo.wait must be a duration of at least 5ms, not '1ms'");
    EXPECT_EQ(refused("demo.wait", "soon"),
              "demo.wait must be a duration of at least 5ms, not 'soon'");
    EXPECT_EQ(refused("demo.turbo", "maybe"), "demo.turbo must be on or off, not 'maybe'");
    EXPECT_EQ(refused("demo.file", ""), "demo.file must be a path, not ''");
    EXPECT_EQ(refused("demo.guid", "0"), "demo.guid must be a GUID other than 0, not '0'");
    EXPECT_EQ(refused("demo.guid", "0xzz"), "demo.guid must be a GUID other than 0, not '0xzz'");
    EXPECT_EQ(refused("demo.mode_bits", "0x1"),
              "demo.mode_bits must be an octal number up to 0777, not '0x1'");
    EXPECT_NE(refused("demo.since", "yesterday").find("demo.since must be an RFC 3339 UTC time"),
              std::string::npos);
}

TEST(SourceOptions, HelpShowsTheValueAndTheDefault) {
    EXPECT_EQ(option_value_name(spec("demo.mode")), "fast|slow|off");
    EXPECT_EQ(option_value_name(spec("demo.wait")), "DURATION");
    EXPECT_EQ(option_value_name(spec("demo.turbo")), "on|off");
    EXPECT_EQ(option_help(spec("demo.mode")), "how (default slow)");
    EXPECT_EQ(option_help(spec("demo.count")), "how many");
}

TEST(SourceOptions, ResolvingFillsDefaultsAndKeepsWhatWasGiven) {
    SourceSettings s;
    s.extra = {{"demo.count", "3"}};
    ASSERT_TRUE(resolve_source_options("demo", kDemo, s).ok());
    EXPECT_EQ(s.options.get<uint64_t>("demo.count"), 3u);
    EXPECT_TRUE(s.options.given("demo.count"));
    EXPECT_EQ(s.options.text("demo.mode"), "slow");
    EXPECT_FALSE(s.options.given("demo.mode")) << "a default is not given";
    EXPECT_FALSE(s.options.get<Duration>("demo.wait")) << "no default declared";
    EXPECT_FALSE(s.options.get<bool>("demo.count")) << "read only as its own type";
}

TEST(SourceOptions, ResolvingRefusesInTheSourcesWords) {
    SourceSettings s;
    s.extra = {{"demo.count", "100"}};
    auto r = resolve_source_options("demo", kDemo, s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "demo source: demo.count must be a number 1..64, not '100'");

    s.extra = {{"demo.cont", "3"}};
    r = resolve_source_options("demo", kDemo, s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "unknown source option 'demo.cont' (known: demo.mode, demo.count, demo.wait, "
              "demo.turbo, demo.file, demo.guid, demo.mode_bits, demo.since)");
    s.extra = {{"nodot", "3"}};
    r = resolve_source_options("demo", kDemo, s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "unknown source option 'nodot'");
}

TEST(SourceOptions, ChecksSeeTheOtherOptions) {
    SourceSettings s;
    s.extra = {{"demo.turbo", "on"}};
    auto r = resolve_source_options("demo", kDemo, s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "demo source: demo.turbo needs demo.mode=fast");
    s.extra["demo.mode"] = "fast";
    EXPECT_TRUE(resolve_source_options("demo", kDemo, s).ok());
    s.extra["demo.turbo"] = "off";
    s.extra["demo.mode"] = "slow";
    EXPECT_TRUE(resolve_source_options("demo", kDemo, s).ok());
}

TEST(SourceOptions, TheRegistryFindsEachOptionsSource) {
    SourceRegistry reg;
    reg.add({"demo", "demo source", false, nullptr, kDemo});
    reg.add({"plain", "no options", true, nullptr});
    const auto found = reg.find_option("demo.wait");
    ASSERT_NE(found.spec, nullptr);
    EXPECT_EQ(found.source->name, "demo");
    EXPECT_EQ(reg.find_option("plain.x").spec, nullptr);
    EXPECT_TRUE(check_source_option(reg, "demo.count", "7").ok());
    EXPECT_EQ(check_source_option(reg, "demo.count", "70").error().message,
              "demo source: demo.count must be a number 1..64, not '70'");
    EXPECT_EQ(check_source_option(reg, "plain.x", "1").error().message,
              "unknown source option 'plain.x'");
    // A check across options waits for all of them: one value alone is only read.
    EXPECT_TRUE(check_source_option(reg, "demo.turbo", "on").ok());
    SourceSettings s;
    s.extra = {{"demo.turbo", "on"}};
    EXPECT_FALSE(resolve_source_options(reg, s).ok());
}

}  // namespace
}  // namespace rdmadiag::sources
