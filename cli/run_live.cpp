#include "cli/run_live.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>

#include "collector/publish/snapshot_store.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/runtime/virtual_playback.hpp"

namespace rdmadiag::cli {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_live_stop(int) {
    g_stop = true;
}

}  // namespace

int run_live(const CliContext& ctx, engine::Engine& engine, const LiveOptions& options) {
    const auto settings = ctx.settings();
    auto start = settings.start_time();
    if (!start) return report_error(start.error());
    auto opened = ctx.open_sources(ctx.registry, settings);
    if (!opened) return report_error(opened.error());

    // A scenario has an end and its own times, so it plays on a clock that jumps to the next
    // poll; live sources need the real clock. A saved trace is read whole in one round, on a
    // clock that stands still: its events carry their own times.
    const bool saved_trace =
        options.virtual_time && !settings.simulate && !saved_trace_file(settings).empty();
    const bool virtual_time =
        options.virtual_time && (settings.simulate.has_value() || saved_trace);
    SystemClock system_clock;
    ManualClock manual_clock(*start);
    const Clock& clock = virtual_time ? static_cast<const Clock&>(manual_clock) : system_clock;

    publish::SnapshotStore store;
    common::Logger quiet(common::LogLevel::error, common::LogFormat::logfmt,
                         [](std::string_view) {});
    runtime::RuntimeOptions runtime_options;
    runtime_options.on_observation = options.on_observation;
    runtime::CollectorRuntime rt(std::move(*opened), engine, store, clock, quiet,
                                 std::move(runtime_options));
    rt.prepare();
    for (const auto& d : rt.down_sources()) {
        std::fprintf(stderr, "rdmadiag: source %s: %s\n", d.name.c_str(), d.reason.c_str());
    }
    if (rt.up_sources().empty()) {
        std::fprintf(stderr, "rdmadiag: no source can run here; try --simulate\n");
        return 3;
    }
    if (saved_trace) {
        for (const auto& d : rt.down_sources()) {
            if (d.name == "tracefs") {
                return report_error(make_error("cannot read the saved trace: " + d.reason));
            }
        }
        runtime::run_once(rt, manual_clock);
        return 0;
    }
    if (virtual_time) {
        auto length = rt.playback_length();
        if (!length) {
            std::fprintf(stderr,
                         "rdmadiag: a live source cannot play in virtual time next to the "
                         "simulated fabric; leave out its --source.NAME\n");
            return 2;
        }
        if (options.duration) length = std::min(*length, *options.duration);
        runtime::play_until(rt, manual_clock, *start + *length);
        return 0;
    }
    g_stop = false;
    std::signal(SIGINT, on_live_stop);
    std::signal(SIGTERM, on_live_stop);
    std::optional<TimePoint> deadline;
    if (options.duration) deadline = clock.now() + *options.duration;
    rt.run_until(g_stop, deadline);
    return 0;
}

}  // namespace rdmadiag::cli
