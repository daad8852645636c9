#include "cli/commands/live_run.hpp"

#include <poll.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>

namespace rdmadiag::cli {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_live_stop(int) {
    g_stop = true;
}

struct Running {
    std::unique_ptr<sources::Source> source;
    TimePoint next_poll;
};

std::vector<Running> open_sources(const CliContext& ctx) {
    std::vector<Running> running;
    for (const auto& e : ctx.registry.entries()) {
        const bool wanted = ctx.simulate
                                ? e.name == "sim"
                                : e.enabled_by_default && e.name != "sim" && e.name != "replay";
        if (!wanted) continue;
        auto src = e.factory(ctx.source_settings());
        if (!src) {
            std::fprintf(stderr, "rdmadiag: source %s: %s\n", e.name.c_str(),
                         src.error().message.c_str());
            continue;
        }
        const auto avail = (*src)->availability();
        if (!avail.available) {
            std::fprintf(stderr, "rdmadiag: source %s: %s\n", e.name.c_str(), avail.reason.c_str());
            continue;
        }
        running.push_back(Running{std::move(*src), TimePoint{}});
    }
    return running;
}

void route_refreshes(engine::Engine& engine, std::vector<Running>& running, TimePoint now,
                     sources::ObservationSink& sink) {
    for (int round = 0; round < 4; ++round) {
        auto requests = engine.take_refresh_requests();
        if (requests.empty()) return;
        for (const auto& req : requests) {
            for (auto& r : running) r.source->refresh(req, now, sink);
        }
    }
}

int play_virtual(Running& sim, engine::Engine& engine, sources::ObservationSink& sink,
                 TimePoint start) {
    const auto length = sim.source->playback_length().value_or(Duration::zero());
    auto step = sim.source->poll_interval();
    if (step <= Duration::zero()) step = std::chrono::seconds(1);
    std::vector<Running> one;
    for (auto t = start;; t += step) {
        const auto now = std::min(t, start + length);
        sim.source->poll(now, sink);
        for (int round = 0; round < 4; ++round) {
            auto requests = engine.take_refresh_requests();
            if (requests.empty()) break;
            for (const auto& req : requests) sim.source->refresh(req, now, sink);
        }
        engine.advance(now);
        if (t >= start + length) break;
    }
    return 0;
}

}  // namespace

int run_sources(const CliContext& ctx, engine::Engine& engine, sources::ObservationSink& sink,
                const LiveOptions& options) {
    auto running = open_sources(ctx);
    if (running.empty()) {
        std::fprintf(stderr, "rdmadiag: no source can run here; try --simulate\n");
        return 3;
    }
    SystemClock clock;
    auto start = ctx.start_time();
    const TimePoint begin = start ? *start : clock.now();
    if (ctx.simulate && options.virtual_time && running.front().source->playback_length()) {
        return play_virtual(running.front(), engine, sink, begin);
    }
    g_stop = false;
    std::signal(SIGINT, on_live_stop);
    std::signal(SIGTERM, on_live_stop);
    const TimePoint wall_begin = clock.now();
    while (!g_stop) {
        const auto now = clock.now();
        if (options.duration && now - wall_begin >= *options.duration) break;
        auto next = now + std::chrono::seconds(1);
        std::vector<pollfd> fds;
        std::vector<sources::Source*> owners;
        for (auto& r : running) {
            const auto interval = r.source->poll_interval();
            if (interval > Duration::zero()) {
                if (r.next_poll <= now) {
                    r.source->poll(now, sink);
                    r.next_poll = now + interval;
                }
                next = std::min(next, r.next_poll);
            }
            for (int fd : r.source->event_fds()) {
                fds.push_back(pollfd{fd, POLLIN, 0});
                owners.push_back(r.source.get());
            }
        }
        route_refreshes(engine, running, now, sink);
        engine.advance(now);
        if (options.duration) next = std::min(next, wall_begin + *options.duration);
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - clock.now());
        const int n =
            ::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(0, wait.count())));
        if (n > 0) {
            for (size_t i = 0; i < fds.size(); ++i) {
                if (fds[i].revents != 0) owners[i]->on_readable(fds[i].fd, clock.now(), sink);
            }
        }
    }
    return 0;
}

}  // namespace rdmadiag::cli
