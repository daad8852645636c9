#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/consumers_render.hpp"

namespace rdmadiag::cli::commands {

void register_consumers_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "consumers",
        "Who uses each port's P_Keys and GIDs: IPoIB interfaces, SRP hosts, RDMA CM IDs and QPs, "
        "and the consumer findings");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->callback([&ctx, &exit, port] {
        PortRef filter;
        if (!read_port_filter(*port, filter, exit)) return;
        show_snapshot(ctx, exit, filter, render::render_consumers_json,
                      render::render_consumers_text);
    });
}

}  // namespace rdmadiag::cli::commands
