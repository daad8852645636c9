#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/commands/live_run.hpp"
#include "cli/render/events_render.hpp"
#include "collector/engine/default_engine.hpp"

namespace rdmadiag::cli {

namespace {

// Prints every async event as it reaches the engine.
class PrintingFeed final : public sources::ObservationSink {
public:
    PrintingFeed(engine::Engine& engine, bool json) : engine_(engine), json_(json) {}
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
    engine::Engine& engine_;
    bool json_;
};

}  // namespace

int follow_events(const CliContext& ctx) {
    auto engine = engine::make_default_engine();
    PrintingFeed feed(*engine, ctx.json);
    return run_sources(ctx, *engine, feed, LiveOptions{});
}

}  // namespace rdmadiag::cli
