#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/events_render.hpp"

namespace rdmadiag::cli::commands {

void register_events_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand("events", "Verbs async events the sources saw");
    add_common_options(*cmd, ctx);
    auto follow = std::make_shared<bool>(false);
    cmd->add_flag("-f,--follow", *follow, "Keep running and print events as they arrive");
    cmd->callback([&ctx, &exit, follow] {
        if (*follow) {
            exit.value = follow_events(ctx);
            return;
        }
        show_collected(
            ctx, collect_once(ctx), exit,
            [](const Collected& c) { return render::render_events_json(c.snapshot->events); },
            [](const Collected& c) { return render::render_events_text(c.snapshot->events); });
    });
}

}  // namespace rdmadiag::cli::commands
