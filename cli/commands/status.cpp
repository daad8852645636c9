#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/status_render.hpp"

namespace rdmadiag::cli::commands {

void register_status_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand("status", "Devices, ports, P_Key tables, counters and findings");
    add_common_options(*cmd, ctx);
    cmd->callback([&ctx, &exit] {
        show_collected(
            ctx, collect_once(with_mr_sources(ctx)), exit,
            [](const Collected& c) { return render::render_status_json(*c.snapshot, c.origin); },
            [](const Collected& c) { return render::render_status_text(*c.snapshot, c.origin); });
    });
}

}  // namespace rdmadiag::cli::commands
