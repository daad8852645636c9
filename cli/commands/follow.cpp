#include <poll.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/events_render.hpp"
#include "collector/engine/default_engine.hpp"

namespace rdmadiag::cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) {
    g_stop = true;
}

// Prints every async event as it reaches the engine.
class PrintingFeed final : public ObservationSink {
public:
    PrintingFeed(Engine& engine, bool json) : engine_(engine), json_(json) {}
    void emit(Observation obs) override {
        if (const auto* ev = std::get_if<AsyncEvent>(&obs.body)) {
            EventRecord rec{obs.time, obs.source, *ev};
            if (json_) {
                std::printf("%s\n", render_events_json({rec})["events"][0].dump().c_str());
            } else {
                std::fputs(render_event_line(rec).c_str(), stdout);
            }
            std::fflush(stdout);
        }
        engine_.consume(obs);
    }

private:
    Engine& engine_;
    bool json_;
};

struct Running {
    std::unique_ptr<Source> source;
    TimePoint next_poll;
};

}  // namespace

int follow_events(const CliContext& ctx) {
    std::vector<Running> running;
    std::vector<std::string> names;
    if (ctx.simulate) names.push_back("sim");
    for (const auto& e : ctx.registry.entries()) {
        if (!ctx.simulate && e.enabled_by_default && e.name != "sim" && e.name != "replay") {
            names.push_back(e.name);
        }
    }
    for (const auto& name : names) {
        const auto* entry = ctx.registry.find(name);
        if (!entry) continue;
        auto src = entry->factory(ctx.source_settings());
        if (!src) {
            std::fprintf(stderr, "rdmadiag: source %s: %s\n", name.c_str(),
                         src.error().message.c_str());
            continue;
        }
        const auto avail = (*src)->availability();
        if (!avail.available) {
            std::fprintf(stderr, "rdmadiag: source %s: %s\n", name.c_str(), avail.reason.c_str());
            continue;
        }
        running.push_back(Running{std::move(*src), TimePoint{}});
    }
    if (running.empty()) {
        std::fprintf(stderr,
                     "rdmadiag: no source can report events here; try --simulate to watch the "
                     "simulated fabric\n");
        return 3;
    }
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    auto engine = make_default_engine();
    PrintingFeed feed(*engine, ctx.json);
    SystemClock clock;
    while (!g_stop) {
        auto now = clock.now();
        auto next = now + std::chrono::seconds(1);
        std::vector<pollfd> fds;
        std::vector<Source*> owners;
        for (auto& r : running) {
            const auto interval = r.source->poll_interval();
            if (interval > Duration::zero()) {
                if (r.next_poll <= now) {
                    r.source->poll(now, feed);
                    r.next_poll = now + interval;
                }
                next = std::min(next, r.next_poll);
            }
            for (int fd : r.source->event_fds()) {
                fds.push_back(pollfd{fd, POLLIN, 0});
                owners.push_back(r.source.get());
            }
        }
        for (const auto& req : engine->take_refresh_requests()) {
            for (auto& r : running) r.source->refresh(req, now, feed);
        }
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - clock.now());
        const int n =
            ::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(0, wait.count())));
        if (n > 0) {
            for (size_t i = 0; i < fds.size(); ++i) {
                if (fds[i].revents != 0) owners[i]->on_readable(fds[i].fd, clock.now(), feed);
            }
        }
    }
    return 0;
}

}  // namespace rdmadiag::cli
