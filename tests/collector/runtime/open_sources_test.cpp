#include "collector/runtime/open_sources.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/collector/runtime/test_sources.hpp"

namespace rdmadiag::runtime {
namespace {

using std::chrono::seconds;
using testing::ScriptedSource;

sources::SourceEntry entry(std::string name, bool on) {
    return {name, name + " source", on,
            [name](const sources::SourceSettings&) -> Result<std::unique_ptr<sources::Source>> {
                return std::unique_ptr<sources::Source>(std::make_unique<ScriptedSource>(
                    name, seconds(1), [](TimePoint) { return std::vector<ObservationBody>{}; }));
            }};
}

sources::SourceRegistry registry() {
    sources::SourceRegistry r;
    r.add(entry("sysfs", true));
    r.add(entry("sim", false));
    r.add(entry("tracefs", true));
    r.add({"mad", "fails", false, [](const sources::SourceSettings&) {
               return Result<std::unique_ptr<sources::Source>>(make_error("no umad device"));
           }});
    r.add({"probe", "throws", false,
           [](const sources::SourceSettings&) -> Result<std::unique_ptr<sources::Source>> {
               throw std::runtime_error("socket in use");
           }});
    return r;
}

std::vector<std::string> names(const OpenedSources& o) {
    std::vector<std::string> out;
    for (const auto& s : o.sources) out.emplace_back(s->name());
    return out;
}

TEST(OpenSources, DefaultsThenSwitches) {
    CollectorSettings s;
    auto o = open_sources(registry(), s);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(names(*o), (std::vector<std::string>{"sysfs", "tracefs"}));
    s.source_switches = {{"tracefs", false}};
    o = open_sources(registry(), s);
    EXPECT_EQ(names(*o), std::vector<std::string>{"sysfs"});
}

TEST(OpenSources, SimulateRunsTheFabricAndWhatIsSwitchedOnExplicitly) {
    CollectorSettings s;
    s.simulate = "";
    auto o = open_sources(registry(), s);
    EXPECT_EQ(names(*o), std::vector<std::string>{"sim"});
    EXPECT_EQ(s.source_settings().scenario, "default");
    s.source_switches = {{"tracefs", true}};
    o = open_sources(registry(), s);
    EXPECT_EQ(names(*o), (std::vector<std::string>{"sim", "tracefs"}));
}

TEST(OpenSources, FactoriesThatFailOrThrowAreDownWithTheReason) {
    CollectorSettings s;
    s.source_switches = {{"mad", true}, {"probe", true}};
    auto o = open_sources(registry(), s);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(names(*o), (std::vector<std::string>{"sysfs", "tracefs"}));
    ASSERT_EQ(o->down.size(), 2u);
    EXPECT_EQ(o->down[0].name, "mad");
    EXPECT_EQ(o->down[0].reason, "no umad device");
    EXPECT_EQ(o->down[1].name, "probe");
    EXPECT_EQ(o->down[1].reason, "socket in use");
    EXPECT_EQ(o->names, (std::vector<std::string>{"sysfs", "tracefs", "mad", "probe"}));
}

TEST(OpenSources, WithheldSourcesAreDownWithoutBeingBuilt) {
    CollectorSettings s;
    s.withheld = {{"tracefs", "not used with --path.sysfs"}};
    auto o = open_sources(registry(), s);
    EXPECT_EQ(names(*o), std::vector<std::string>{"sysfs"});
    ASSERT_EQ(o->down.size(), 1u);
    EXPECT_EQ(o->down[0].reason, "not used with --path.sysfs");
}

TEST(OpenSources, UnknownSwitchesAndAMissingFabricAreErrors) {
    CollectorSettings s;
    s.source_switches = {{"sysf", true}};
    EXPECT_FALSE(open_sources(registry(), s).ok());
    CollectorSettings sim;
    sim.simulate = "";
    EXPECT_FALSE(open_sources(sources::SourceRegistry{}, sim).ok());
}

// A source with a file to read, as the partitions source has: its options are what it reads.
constexpr sources::OptionSpec kFileOptions[] = {
    {.key = "file.path",
     .type = sources::OptionType::path,
     .help = "the file",
     .switches_source_on = true},
    {.key = "file.every",
     .type = sources::OptionType::duration,
     .help = "how often",
     .default_text = "10s"},
};

TEST(OpenSources, AWrongOptionIsAnErrorBeforeAnySourceIsBuilt) {
    auto reg = registry();
    int built = 0;
    reg.add(
        {"file", "reads a file", false,
         [&built](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
             ++built;
             EXPECT_EQ(s.options.get<Duration>("file.every"), std::chrono::seconds(10))
                 << "a source reads its options typed, with their defaults";
             EXPECT_EQ(s.options.text("file.path"), "/etc/x.conf");
             return std::unique_ptr<sources::Source>(std::make_unique<ScriptedSource>(
                 "file", seconds(1), [](TimePoint) { return std::vector<ObservationBody>{}; }));
         },
         kFileOptions});
    CollectorSettings s;
    s.sources.extra["file.every"] = "often";
    auto bad = open_sources(reg, s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "file source: file.every must be a positive duration, not 'often'");
    s.sources.extra = {{"file.pth", "/etc/x.conf"}};
    bad = open_sources(reg, s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "unknown source option 'file.pth' (known: file.path, file.every)");
    EXPECT_EQ(built, 0);

    // The file's name is what the source is for: giving it asks for the source, unless it is
    // switched off.
    s.sources.extra = {{"file.path", "/etc/x.conf"}};
    auto opened = open_sources(reg, s);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(names(*opened), (std::vector<std::string>{"sysfs", "tracefs", "file"}));
    EXPECT_EQ(built, 1);
    s.source_switches["file"] = false;
    EXPECT_EQ(names(*open_sources(reg, s)), (std::vector<std::string>{"sysfs", "tracefs"}));
}

}  // namespace
}  // namespace rdmadiag::runtime
