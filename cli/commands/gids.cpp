#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/gids_render.hpp"

namespace rdmadiag::cli::commands {

void register_gids_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "gids",
        "GIDs index by index: the kernel's cache beside what the port and the SM hold, "
        "and on RoCE the netdev's addresses (* marks disagreement)");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->callback([&ctx, &exit, port] {
        PortRef filter;
        if (!port->empty()) {
            auto ref = parse_port_ref(*port);
            if (!ref) {
                exit.value = report_error(ref.error());
                return;
            }
            filter = *ref;
        }
        auto got = collect_once(ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (ctx.json) {
            print_json(render::render_gids_json(*got->snapshot, filter));
        } else {
            std::fputs(render::render_gids_text(*got->snapshot, filter).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli::commands
