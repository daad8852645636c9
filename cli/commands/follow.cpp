#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/events_render.hpp"
#include "cli/run_live.hpp"
#include "collector/engine/default/default_engine.hpp"

namespace rdmadiag::cli::commands {

namespace {

void print_event(const Observation& obs, bool json) {
    const auto* ev = std::get_if<AsyncEvent>(&obs.body);
    if (!ev) return;
    EventRecord rec{obs.time, obs.source, *ev};
    if (json) {
        std::printf("%s\n", render::render_events_json({rec})["events"][0].dump().c_str());
    } else {
        std::fputs(render::render_event_line(rec).c_str(), stdout);
    }
    std::fflush(stdout);
}

}  // namespace

int follow_events(const CliContext& ctx) {
    auto engine = engine::make_default_engine();
    LiveOptions options;
    options.on_observation = [json = ctx.json](const Observation& o) { print_event(o, json); };
    return run_live(ctx, *engine, options);
}

}  // namespace rdmadiag::cli::commands
