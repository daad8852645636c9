// Every subcommand takes the shared collector flags and opens its sources through them: a
// --no-source.X or --source.X on any command line changes what that command runs.

#include "cli/collector_flags.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli/commands/commands.hpp"
#include "collector/builtin/builtin_sources.hpp"
#include "tests/support/temp_dir.hpp"
#ifdef RDMADIAG_HAVE_SERVE
#include "cli/commands/serve.hpp"
#include "tests/support/test_paths.hpp"
#endif

namespace rdmadiag::cli {
namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// Runs `rdmadiag ARGS` in-process with an opener that records the selection and opens nothing
// (so live commands end at once) and returns every selection the command made.
std::vector<std::vector<std::string>> selections(std::vector<std::string> args) {
    CLI::App app{"rdmadiag", "rdmadiag"};
    app.require_subcommand(1);
    CliContext ctx;
    builtin::register_builtin_sources(ctx.registry);
    std::vector<std::vector<std::string>> seen;
    ctx.open_sources =
        [&seen](const sources::SourceRegistry& registry,
                const runtime::CollectorSettings& settings) -> Result<runtime::OpenedSources> {
        auto names = RDMADIAG_TRY(runtime::select_sources(registry, settings));
        seen.push_back(names);
        runtime::OpenedSources none;
        none.names = std::move(names);
        return none;
    };
    commands::ExitCode exit;
    commands::register_commands(app, ctx, exit);
    std::reverse(args.begin(), args.end());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    app.parse(args);
    (void)testing::internal::GetCapturedStdout();
    (void)testing::internal::GetCapturedStderr();
    return seen;
}

const std::string kSysfs = ::rdmadiag::test::fixtures_dir() + "/sysfs/mlx5-ib";

// Named before any test runs (a test parameter): the folder lasts until the process ends.
const std::string& record_file() {
    static const test::TempDir dir("flags");
    static const std::string file = dir.file("record.jsonl");
    return file;
}

class NoSourceIsHonoured : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(NoSourceIsHonoured, ByTheCommand) {
    auto args = GetParam();
    for (std::string a : {"--path.sysfs", kSysfs.c_str(), "--no-source.sysfs", "--source.probe"})
        args.push_back(a);
    const auto seen = selections(args);
    ASSERT_FALSE(seen.empty()) << "the command opened no sources";
    for (const auto& names : seen) {
        EXPECT_FALSE(has(names, "sysfs"));
        EXPECT_TRUE(has(names, "probe"));
    }
    // And without the switches the same command runs sysfs and leaves the probe off.
    auto plain = GetParam();
    plain.push_back("--path.sysfs");
    plain.push_back(kSysfs);
    for (const auto& names : selections(plain)) {
        EXPECT_TRUE(has(names, "sysfs"));
        EXPECT_FALSE(has(names, "probe"));
    }
    std::filesystem::remove(record_file());
}

INSTANTIATE_TEST_SUITE_P(
    EveryCommand, NoSourceIsHonoured,
    ::testing::Values(
        std::vector<std::string>{"status"}, std::vector<std::string>{"pkeys"},
        std::vector<std::string>{"pkeys", "--watch"}, std::vector<std::string>{"pkeys", "--diff"},
        std::vector<std::string>{"counters"}, std::vector<std::string>{"events"},
        std::vector<std::string>{"events", "--follow"}, std::vector<std::string>{"mrs"},
        std::vector<std::string>{"mrs", "--path.tracefs", "/nonexistent"},
        std::vector<std::string>{"check"}, std::vector<std::string>{"record", record_file()}));

// The message a command line is refused with when it is read, or "" when it is not.
std::string refused_when_read(std::vector<std::string> args) {
    CLI::App app{"rdmadiag", "rdmadiag"};
    app.require_subcommand(1);
    CliContext ctx;
    builtin::register_builtin_sources(ctx.registry);
    ctx.open_sources = [](const sources::SourceRegistry&,
                          const runtime::CollectorSettings&) -> Result<runtime::OpenedSources> {
        return make_error("opened despite a wrong option");
    };
    commands::ExitCode exit;
    commands::register_commands(app, ctx, exit);
#ifdef RDMADIAG_HAVE_SERVE
    commands::register_serve_command(app, ctx, exit);
#endif
    std::reverse(args.begin(), args.end());
    try {
        app.parse(args);
    } catch (const CLI::ValidationError& e) {
        return e.what();
    }
    return "";
}

class AWrongSourceOption : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(AWrongSourceOption, StopsTheCommandBeforeItRuns) {
    struct Case {
        std::vector<std::string> args;
        const char* message;
    };
    for (const auto& [extra, message] : {
             Case{{"--source.opt", "sysfs.reads=sometimes"},
                  "--source.opt: sysfs source: sysfs.reads must be auto, held or reopen, not "
                  "'sometimes'"},
             Case{{"--sysfs.reads", "sometimes"},
                  "--sysfs.reads: sysfs source: sysfs.reads must be auto, held or reopen, not "
                  "'sometimes'"},
             Case{{"--source.opt", "sysfs.read=held"},
                  "--source.opt: unknown source option 'sysfs.read' (known: sysfs.counters, "
                  "sysfs.reads, sysfs.pkey_full_interval)"},
             Case{{"--netdev.confirm", "0s"},
                  "--netdev.confirm: netdev source: netdev.confirm must be a positive duration, "
                  "not '0s'"},
             Case{{"--partitions.sm-port-guid", "0x0"},
                  "--partitions.sm-port-guid: partitions source: partitions.sm_port_guid must be "
                  "a GUID other than 0, not '0x0'"},
         }) {
        auto args = GetParam();
        args.insert(args.end(), extra.begin(), extra.end());
        EXPECT_EQ(refused_when_read(args), message) << args.front();
    }
}

const std::vector<std::string> kEveryCommand[] = {
    {"status"},     {"pkeys"},    {"gids"},
    {"partitions"}, {"counters"}, {"events"},
    {"mrs"},        {"check"},    {"record", "/nonexistent/x"},
#ifdef RDMADIAG_HAVE_SERVE
    {"serve"},
#endif
};

INSTANTIATE_TEST_SUITE_P(EveryCommand, AWrongSourceOption, ::testing::ValuesIn(kEveryCommand));

// What one option says of another is known once the command line is read whole: the command
// stops when it opens its sources, before any runs, in the source's words.
TEST(CollectorFlags, OptionsThatDisagreeStopTheCommandAtStartUp) {
    CLI::App app{"rdmadiag", "rdmadiag"};
    app.require_subcommand(1);
    CliContext ctx;
    builtin::register_builtin_sources(ctx.registry);
    commands::ExitCode exit;
    commands::register_commands(app, ctx, exit);
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    app.parse("status --simulate --interval.pkeys 30s --sysfs.pkey_full_interval 20s", false);
    const std::string out = testing::internal::GetCapturedStdout();
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(exit.value, 3);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err,
              "rdmadiag: sysfs source: sysfs.pkey_full_interval must be a duration no shorter "
              "than the P_Key interval (30.0s)\n");
}

TEST(CollectorFlags, OldDeviceSpellingsAreAliases) {
    for (const auto& [include, exclude] : {std::pair{"--device", "--exclude-device"},
                                           std::pair{"--device.include", "--device.exclude"}}) {
        CLI::App app;
        CollectorFlags flags;
        sources::SourceRegistry registry;
        add_collector_flags(app, flags, registry);
        app.parse(std::string(include) + " rxe0,mlx5_* " + exclude + " mlx5_9", false);
        const auto s = flags.applied();
        EXPECT_EQ(s.sources.include_devices, (std::vector<std::string>{"rxe0", "mlx5_*"}));
        EXPECT_EQ(s.sources.exclude_devices, std::vector<std::string>{"mlx5_9"});
    }
}

TEST(CollectorFlags, IntervalsForBothCounterTiersAndTheTables) {
    CLI::App app;
    CollectorFlags flags;
    sources::SourceRegistry registry;
    add_collector_flags(app, flags, registry);
    auto defaults = flags.applied().sources;
    EXPECT_EQ(defaults.counter_interval, std::chrono::seconds(1));
    EXPECT_EQ(defaults.slow_counter_interval, std::chrono::seconds(15));
    app.parse("--interval.counters 2s --interval.slow-counters 1m --interval.pkeys 30s", false);
    const auto s = flags.applied().sources;
    EXPECT_EQ(s.counter_interval, std::chrono::seconds(2));
    EXPECT_EQ(s.slow_counter_interval, std::chrono::minutes(1));
    EXPECT_EQ(s.pkey_interval, std::chrono::seconds(30));
    CLI::App bad;
    CollectorFlags bad_flags;
    add_collector_flags(bad, bad_flags, registry);
    EXPECT_THROW(bad.parse("--interval.slow-counters 0s", false), CLI::ValidationError);
}

TEST(CollectorFlags, SimulateWithoutAScenarioPlaysTheDefault) {
    CLI::App app;
    CollectorFlags flags;
    sources::SourceRegistry registry;
    add_collector_flags(app, flags, registry);
    app.parse("--simulate", false);
    const auto s = flags.applied();
    ASSERT_TRUE(s.simulate.has_value());
    EXPECT_EQ(s.source_settings().scenario, "default");
}

TEST(CollectorFlags, PartitionsConfSwitchesItsSourceOnEverywhere) {
    CLI::App app;
    CollectorFlags flags;
    sources::SourceRegistry registry;
    builtin::register_builtin_sources(registry);
    add_collector_flags(app, flags, registry);
    app.parse("--partitions.conf /etc/opensm/partitions.conf --partitions.sm-port-guid 0x1234",
              false);
    const auto s = flags.applied();
    EXPECT_EQ(s.sources.extra.at("partitions.conf"), "/etc/opensm/partitions.conf");
    EXPECT_EQ(s.sources.extra.at("partitions.sm_port_guid"), "0x1234");
    auto names = runtime::select_sources(registry, s);
    ASSERT_TRUE(names.ok());
    EXPECT_TRUE(has(*names, "partitions"));

    CLI::App bad;
    CollectorFlags bad_flags;
    add_collector_flags(bad, bad_flags, registry);
    EXPECT_THROW(bad.parse("--partitions.sm-port-guid 0xnot", false), CLI::ValidationError);
}

TEST(CollectorFlags, TraceNamesTheSavedTraceAndSwitchesTracefsOn) {
    CLI::App app;
    CollectorFlags flags;
    sources::SourceRegistry registry;
    builtin::register_builtin_sources(registry);
    add_trace_file_option(app, flags);
    app.parse("--trace /tmp/customer-trace.txt", false);
    const auto s = flags.applied();
    EXPECT_EQ(s.sources.extra.at("tracefs.trace_file"), "/tmp/customer-trace.txt");
    auto names = runtime::select_sources(registry, s);
    ASSERT_TRUE(names.ok());
    EXPECT_TRUE(has(*names, "tracefs"));
    EXPECT_FALSE(has(*runtime::select_sources(registry, CollectorFlags().applied()), "tracefs"));
}

TEST(CollectorFlags, PartitionsTakesItsOwnSpellingsOfTheSameFlags) {
    const auto seen = selections({"partitions", "--path.sysfs", kSysfs, "--intent",
                                  "/nonexistent/partitions.conf", "--sm-port-guid", "0x1234"});
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(has(seen.front(), "partitions"));
    EXPECT_TRUE(has(seen.front(), "sysfs"));
    EXPECT_FALSE(has(selections({"partitions", "--path.sysfs", kSysfs}).front(), "partitions"))
        << "no file, no partitions source";
}

#ifdef RDMADIAG_HAVE_SERVE
TEST(CollectorFlags, ServeSelectsWithTheSameFlagsOverItsConfigFile) {
    CLI::App app;
    sources::SourceRegistry registry;
    builtin::register_builtin_sources(registry);
    commands::ServeFlags flags;
    commands::add_serve_flags(app, flags, registry);
    const test::TempDir dir("flags-config");
    const std::string file = dir.file("rdmadiag.yml");
    {
        std::ofstream out(file);
        out << "sources:\n  sysfs: true\n  probe: false\npath:\n  sysfs: /from/file\n";
    }
    app.parse("--config.file " + file + " --source.probe --no-source.sysfs", false);
    auto config = commands::resolve_serve_config(flags, registry);
    ASSERT_TRUE(config.ok()) << config.error().message;
    auto names = runtime::select_sources(registry, config->collector);
    ASSERT_TRUE(names.ok());
    EXPECT_FALSE(has(*names, "sysfs"));
    EXPECT_TRUE(has(*names, "probe"));
    EXPECT_EQ(config->collector.sources.sysfs_root, "/from/file");
}
#endif

}  // namespace
}  // namespace rdmadiag::cli
