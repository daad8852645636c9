#include "cli/cli_context.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/remote/http_get.hpp"
#include "collector/engine/default_engine.hpp"
#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::cli {

SourceSettings CliContext::source_settings() const {
    SourceSettings s;
    s.sysfs_root = sysfs_root;
    s.tracefs_root = tracefs_root;
    s.include_devices = include_devices;
    s.exclude_devices = exclude_devices;
    s.scenario = scenario;
    s.extra = source_options;
    return s;
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

// Feeds every observation a source makes straight into the engine, and routes the refresh
// requests the rules make back to the source, as the daemon does.
class EngineFeed final : public ObservationSink {
public:
    explicit EngineFeed(Engine& engine) : engine_(engine) {}
    void emit(Observation obs) override { pending_.push_back(std::move(obs)); }

    void drain() {
        std::stable_sort(
            pending_.begin(), pending_.end(),
            [](const Observation& a, const Observation& b) { return a.time < b.time; });
        for (const auto& o : pending_) engine_.consume(o);
        pending_.clear();
    }

private:
    Engine& engine_;
    std::vector<Observation> pending_;
};

void poll_and_refresh(Source& src, TimePoint t, Engine& engine, EngineFeed& feed) {
    src.poll(t, feed);
    feed.drain();
    for (int round = 0; round < 4; ++round) {
        auto requests = engine.take_refresh_requests();
        if (requests.empty()) break;
        for (const auto& r : requests) src.refresh(r, t, feed);
        feed.drain();
    }
    engine.advance(t);
}

Result<Collected> play_to_end(std::unique_ptr<Source> src, TimePoint start, std::string origin) {
    auto engine = make_default_engine();
    engine->advance(start);
    EngineFeed feed(*engine);
    const auto length = src->playback_length().value_or(Duration::zero());
    auto step = src->poll_interval();
    if (step <= Duration::zero()) step = std::chrono::seconds(1);
    for (auto t = start;; t += step) {
        poll_and_refresh(*src, std::min(t, start + length), *engine, feed);
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

    auto engine = make_default_engine();
    engine->advance(*start);
    EngineFeed feed(*engine);
    std::vector<std::string> down;
    size_t used = 0;
    for (const auto& entry : ctx.registry.entries()) {
        if (!entry.enabled_by_default || entry.name == "sim" || entry.name == "replay") continue;
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
        poll_and_refresh(**src, *start, *engine, feed);
    }
    auto snap = engine->snapshot();
    const bool any_device = std::any_of(snap->devices.begin(), snap->devices.end(),
                                        [](const DeviceSnapshot& d) { return d.present; });
    const bool defaults = ctx.sysfs_root == "/sys" && ctx.include_devices.empty();
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
    Collected c{snap, "sysfs at " + ctx.sysfs_root, {}};
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
