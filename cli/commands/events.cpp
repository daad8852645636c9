#include <cstdio>

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
        auto got = collect_once(ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (ctx.json) {
            print_json(render::render_events_json(got->snapshot->events));
        } else {
            std::fputs(render::render_events_text(got->snapshot->events).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli::commands
