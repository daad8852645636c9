#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/counters_render.hpp"

namespace rdmadiag::cli::commands {

void register_counters_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "counters", "Port counters with their width, monotonic total, saturation and resets");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    auto hw = std::make_shared<bool>(false);
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->add_flag("--hw", *hw, "Include driver-specific hw_counters");
    cmd->callback([&ctx, &exit, port, hw] {
        render::CountersRenderOptions opt;
        opt.include_hw = *hw;
        if (!read_port_filter(*port, opt.filter, exit)) return;
        show_snapshot(ctx, exit, opt, render::render_counters_json, render::render_counters_text);
    });
}

}  // namespace rdmadiag::cli::commands
