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

}  // namespace
}  // namespace rdmadiag::runtime
