#include <cstdio>

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
        if (!port->empty()) {
            auto ref = parse_port_ref(*port);
            if (!ref) {
                exit.value = report_error(ref.error());
                return;
            }
            opt.filter = *ref;
        }
        auto got = collect_once(ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (ctx.json) {
            print_json(render::render_counters_json(*got->snapshot, opt));
        } else {
            std::fputs(render::render_counters_text(*got->snapshot, opt).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli::commands
