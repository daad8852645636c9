#include "cli/cli_context.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/remote/http_get.hpp"
#include "collector/engine/default_engine.hpp"
#include "collector/engine/source_step.hpp"
#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::cli {

sources::SourceSettings CliContext::source_settings() const {
    sources::SourceSettings s;
    s.sysfs_root = sysfs_root;
    s.tracefs_root = tracefs_root;
    s.include_devices = include_devices;
    s.exclude_devices = exclude_devices;
    s.scenario = scenario;
    s.extra = source_options;
    return s;
}

bool CliContext::source_enabled(const sources::SourceEntry& entry) const {
    if (entry.name == "sim" || entry.name == "replay") return false;
    if (withheld_sources.count(entry.name)) return false;
    auto it = source_switches.find(entry.name);
    return it != source_switches.end() ? it->second : entry.enabled_by_default;
}

Result<TimePoint> CliContext::start_time() const {
    if (clock_start.empty()) return SystemClock{}.now();
    return parse_time(clock_start);
}

void add_common_options(CLI::App& cmd, CliContext& ctx) {
    cmd.add_flag("--json", ctx.json, "Print JSON (stable field names, see docs/json.md)");
    cmd.add_option("--path.sysfs", ctx.sysfs_root, "sysfs mount point")->capture_default_str();
    cmd.add_option("--path.tracefs", ctx.tracefs_root,
                   "tracefs mount point (default: /sys/kernel/tracing, then "
                   "/sys/kernel/debug/tracing)");
    cmd.add_option_function<std::string>(
           "--simulate",
           [&ctx](const std::string& v) {
               ctx.simulate = true;
               ctx.scenario = v.empty() ? "default" : v;
           },
           "Use the built-in simulated fabric, playing SCENARIO (a shipped name or a file)")
        ->expected(0, 1)
        ->type_name("[SCENARIO]");
    cmd.add_option("--remote", ctx.remote, "Ask a running 'rdmadiag serve' at URL instead");
    cmd.add_option("--device", ctx.include_devices, "Only these devices (glob, repeatable)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--exclude-device", ctx.exclude_devices, "Skip these devices (glob, repeatable)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    for (const auto& entry : ctx.registry.entries()) {
        if (entry.name == "sim" || entry.name == "replay") continue;
        const auto name = entry.name;
        cmd.add_flag_callback(
               "--source." + name, [&ctx, name] { ctx.source_switches[name] = true; },
               "Use source " + name + (entry.enabled_by_default ? " (on by default)" : "") + ": " +
                   entry.description)
            ->group("Sources");
        cmd.add_flag_callback(
               "--no-source." + name, [&ctx, name] { ctx.source_switches[name] = false; },
               "Do not use source " + name)
            ->group("Sources");
    }
    cmd.add_option("--clock.start", ctx.clock_start,
                   "Treat this RFC 3339 UTC time as now (reproducible output)")
        ->group("");
    cmd.add_option_function<std::vector<std::string>>(
           "--source.opt",
           [&ctx](const std::vector<std::string>& kvs) {
               for (const auto& kv : kvs) {
                   const auto eq = kv.find('=');
                   if (eq == std::string::npos) {
                       throw CLI::ValidationError("--source.opt", "expects KEY=VALUE: " + kv);
                   }
                   ctx.source_options[kv.substr(0, eq)] = kv.substr(eq + 1);
               }
           },
           "Source option KEY=VALUE (e.g. mad.scope=subnet), repeatable")
        ->type_name("KEY=VALUE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

namespace {

Result<Collected> play_to_end(std::unique_ptr<sources::Source> src, TimePoint start,
                              std::string origin) {
    auto engine = engine::make_default_engine();
    engine->advance(start);
    const auto length = src->playback_length().value_or(Duration::zero());
    auto step = src->poll_interval();
    if (step <= Duration::zero()) step = std::chrono::seconds(1);
    for (auto t = start;; t += step) {
        engine::step_source(*src, std::min(t, start + length), *engine);
        if (t >= start + length) break;
    }
    return Collected{engine->snapshot(), std::move(origin), {}};
}

Result<Collected> simulate(const CliContext& ctx, TimePoint start) {
    const auto* entry = ctx.registry.find("sim");
    if (!entry) return make_error("this build has no simulated fabric");
    auto src = entry->factory(ctx.source_settings());
    if (!src) return src.error();
    return play_to_end(std::move(*src), start, "simulated fabric, scenario '" + ctx.scenario + "'");
}

}  // namespace

CliContext with_mr_sources(const CliContext& ctx) {
    CliContext c = ctx;
    sources::SourceRegistry reg;
    for (auto entry : ctx.registry.entries()) {
        if (entry.name == "tracefs") entry.enabled_by_default = true;
        if (entry.name == "netlink") {
            const auto sw = ctx.source_switches.find("netlink");
            if (ctx.sysfs_root == "/sys") {
                entry.enabled_by_default = true;
            } else if (sw == ctx.source_switches.end()) {
                c.withheld_sources["netlink"] =
                    "not used with --path.sysfs: RDMA netlink describes this machine's kernel";
            }
        }
        reg.add(std::move(entry));
    }
    c.registry = std::move(reg);
    return c;
}

Result<Collected> fetch_remote(const std::string& base) {
    auto url = parse_http_url(base);
    if (!url) return url.error();
    std::string path = url->path;
    while (!path.empty() && path.back() == '/') path.pop_back();
    url->path = path + "/api/v1/snapshot";
    auto resp = http_get(*url);
    if (!resp) return make_error("daemon at " + base + ": " + resp.error().message);
    if (resp->status != 200) {
        return make_error("daemon at " + base + " answered HTTP " + std::to_string(resp->status));
    }
    auto snap = parse_snapshot_json(resp->body);
    if (!snap) return make_error("daemon at " + base + ": " + snap.error().message);
    return Collected{std::make_shared<const Snapshot>(std::move(*snap)), "daemon at " + base, {}};
}

Result<Collected> collect_once(const CliContext& ctx) {
    auto start = ctx.start_time();
    if (!start) return start.error();
    if (!ctx.remote.empty()) return fetch_remote(ctx.remote);
    if (ctx.simulate) return simulate(ctx, *start);

    auto engine = engine::make_default_engine();
    engine->advance(*start);
    std::vector<std::string> down;
    std::vector<std::string> used_names;
    size_t used = 0;
    for (const auto& [name, reason] : ctx.withheld_sources) {
        engine->consume(Observation{*start, name, SourceStatus{false, reason}});
    }
    for (const auto& entry : ctx.registry.entries()) {
        if (!ctx.source_enabled(entry)) continue;
        auto src = entry.factory(ctx.source_settings());
        if (!src) {
            down.push_back(entry.name + ": " + src.error().message);
            continue;
        }
        const auto avail = (*src)->availability();
        if (!avail.available) {
            down.push_back(entry.name + ": " + avail.reason);
            engine->consume(Observation{*start, entry.name, SourceStatus{false, avail.reason}});
            continue;
        }
        ++used;
        used_names.push_back(entry.name == "sysfs" ? "sysfs at " + ctx.sysfs_root : entry.name);
        engine::step_source(**src, *start, *engine);
    }
    auto snap = engine->snapshot();
    const bool any_device = std::any_of(snap->devices.begin(), snap->devices.end(),
                                        [](const DeviceSnapshot& d) { return d.present; });
    const bool defaults =
        ctx.sysfs_root == "/sys" && ctx.include_devices.empty() && ctx.source_switches.empty();
    if (!any_device && defaults && ctx.registry.find("sim")) {
        CliContext sim_ctx;
        sim_ctx.registry = ctx.registry;
        sim_ctx.scenario = "default";
        sim_ctx.source_options = ctx.source_options;
        auto played = simulate(sim_ctx, *start);
        if (!played) return played.error();
        std::string why = "No RDMA device on this machine";
        if (!down.empty()) why += " (" + down.front() + ")";
        played->notes.push_back(why +
                                ": showing the built-in simulated fabric. Pick a scenario with "
                                "--simulate=NAME, or read another tree with --path.sysfs.");
        return played;
    }
    std::string origin;
    for (const auto& n : used_names) origin += (origin.empty() ? "" : ", ") + n;
    Collected c{snap, origin.empty() ? "no source available" : origin, {}};
    if (used == 0) {
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
