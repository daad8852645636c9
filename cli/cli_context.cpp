#include "cli/cli_context.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/remote/http_get.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/json/snapshot_json.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/runtime/virtual_playback.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"
#include "collector/sources/tracefs/tracefs_source.hpp"

namespace rdmadiag::cli {

runtime::CollectorSettings CliContext::settings() const {
    runtime::CollectorSettings s = flags.applied();
    for (const auto& [name, reason] : withheld_sources) s.withheld[name] = reason;
    return s;
}

void add_common_options(CLI::App& cmd, CliContext& ctx) {
    cmd.add_flag("--json", ctx.json, "Print JSON (stable field names, see docs/json.md)");
    cmd.add_option("--remote", ctx.remote, "Ask a running 'rdmadiag serve' at URL instead");
    add_collector_flags(cmd, ctx.flags, ctx.registry);
}

namespace {

Result<Collected> simulate(const CliContext& ctx, runtime::CollectorSettings settings,
                           TimePoint start) {
    if (!ctx.registry.find(runtime::kSimulatedSourceName))
        return make_error("this build has no simulated fabric");
    const std::string scenario = settings.scenario();
    auto run = RDMADIAG_TRY(run_sources_once(ctx, settings, start));
    for (const auto& d : run.down) {
        if (d.name == runtime::kSimulatedSourceName) return make_error(d.reason);
    }
    return Collected{run.snapshot, "simulated fabric, scenario '" + scenario + "'", {}};
}

}  // namespace

Result<SourcesRun> run_sources_once(const CliContext& ctx,
                                    const runtime::CollectorSettings& settings, TimePoint start) {
    auto opened = RDMADIAG_TRY(ctx.open_sources(ctx.registry, settings));
    const auto names = opened.names;
    auto engine = engine::make_default_engine();
    engine->advance(start);
    ManualClock clock(start);
    publish::SnapshotStore store;
    common::Logger quiet(common::LogLevel::error, common::LogFormat::logfmt,
                         [](std::string_view) {});
    runtime::CollectorRuntime rt(std::move(opened), *engine, store, clock, quiet);
    runtime::run_once(rt, clock);
    // A saved trace named on the command line is the point of the run: without it there is
    // nothing to say.
    if (const std::string trace = saved_trace_file(settings); !trace.empty()) {
        for (const auto& d : rt.down_sources()) {
            if (d.name == "tracefs") return make_error("cannot read the saved trace: " + d.reason);
        }
    }
    SourcesRun out{engine->snapshot(), {}, rt.down_sources()};
    const auto up = rt.up_sources();
    for (const auto& n : names) {
        if (std::find(up.begin(), up.end(), n) != up.end()) out.up.push_back(n);
    }
    return out;
}

CliContext with_mr_sources(const CliContext& ctx) {
    CliContext c = ctx;
    const auto settings = ctx.settings();
    sources::SourceRegistry reg;
    for (auto entry : ctx.registry.entries()) {
        if (entry.name == "tracefs") entry.enabled_by_default = true;
        if (entry.name == "netlink") {
            if (settings.sources.sysfs_root == "/sys") {
                entry.enabled_by_default = true;
            } else if (!settings.source_switches.count("netlink")) {
                c.withheld_sources["netlink"] =
                    "not used with --path.sysfs: RDMA netlink describes this machine's kernel";
            }
        }
        reg.add(std::move(entry));
    }
    c.registry = std::move(reg);
    return c;
}

std::string saved_trace_file(const runtime::CollectorSettings& settings) {
    auto it = settings.sources.extra.find(tracefs::kTraceFileOption);
    return it == settings.sources.extra.end() ? std::string() : it->second;
}

std::vector<std::string> skipped_trace_lines(const Snapshot& snapshot) {
    std::vector<std::string> out;
    for (const auto& e : snapshot.errors) {
        if (e.source != "tracefs") continue;
        // The source names a line it skipped "<file> line <n>"; the file alone heads the count
        // of lines it did not name.
        const bool one_line = e.error.subject.find(" line ") != std::string::npos;
        out.push_back(e.error.subject + (one_line ? " skipped: " : ": ") + e.error.message);
    }
    return out;
}

Result<Collected> fetch_remote(const std::string& base) {
    auto url = RDMADIAG_TRY(remote::parse_http_url(base));
    std::string path = url.path;
    while (!path.empty() && path.back() == '/') path.pop_back();
    url.path = path + "/api/v1/snapshot";
    auto resp = remote::http_get(url);
    if (!resp) return make_error("daemon at " + base + ": " + resp.error().message);
    if (resp->status != 200) {
        return make_error("daemon at " + base + " answered HTTP " + std::to_string(resp->status));
    }
    auto snap = codec::parse_snapshot_json(resp->body);
    if (!snap) return make_error("daemon at " + base + ": " + snap.error().message);
    return Collected{std::make_shared<const Snapshot>(std::move(*snap)), "daemon at " + base, {}};
}

Result<Collected> collect_once(const CliContext& ctx) {
    const auto settings = ctx.settings();
    const auto start = RDMADIAG_TRY(settings.start_time());
    if (!ctx.remote.empty()) return fetch_remote(ctx.remote);
    if (settings.simulate) return simulate(ctx, settings, start);

    auto shot = RDMADIAG_TRY(run_sources_once(ctx, settings, start));
    std::vector<std::string> down;
    for (const auto& d : shot.down) {
        if (!settings.withheld.count(d.name)) down.push_back(d.name + ": " + d.reason);
    }
    const auto& snap = shot.snapshot;
    const bool any_device = std::any_of(snap->devices.begin(), snap->devices.end(),
                                        [](const DeviceSnapshot& d) { return d.present; });
    // The partitions source reads a file, not devices: switching it on leaves the devices to the
    // defaults, and it reads the same file beside the simulated fabric.
    const bool only_partitions = std::all_of(
        settings.source_switches.begin(), settings.source_switches.end(),
        [](const auto& s) { return s.first == partitions_conf::kSourceName && s.second; });
    const bool defaults = settings.sources.sysfs_root == "/sys" &&
                          settings.sources.include_devices.empty() && only_partitions;
    if (!any_device && defaults && ctx.registry.find(runtime::kSimulatedSourceName)) {
        runtime::CollectorSettings sim;
        sim.simulate = "default";
        sim.sources.extra = settings.sources.extra;
        sim.source_switches = settings.source_switches;
        auto played = RDMADIAG_TRY(simulate(ctx, sim, start));
        std::string why = "No RDMA device on this machine";
        if (!down.empty()) why += " (" + down.front() + ")";
        played.notes.push_back(why +
                               ": showing the built-in simulated fabric. Pick a scenario with "
                               "--simulate=NAME, or read another tree with --path.sysfs.");
        return played;
    }
    std::string origin;
    for (const auto& n : shot.up) {
        origin += (origin.empty() ? "" : ", ") +
                  (n == "sysfs" ? "sysfs at " + settings.sources.sysfs_root : n);
    }
    Collected c{snap, origin.empty() ? "no source available" : origin, {}};
    if (shot.up.empty()) {
        for (const auto& d : down) c.notes.push_back("source " + d);
    }
    return c;
}

int report_error(const Error& error) {
    std::fprintf(stderr, "rdmadiag: %s\n", error.message.c_str());
    return 3;
}

void print_notes(const Collected& collected) {
    for (const auto& n : collected.notes) std::fprintf(stderr, "rdmadiag: %s\n", n.c_str());
}

}  // namespace rdmadiag::cli
