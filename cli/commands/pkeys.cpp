#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/pkeys_render.hpp"

namespace rdmadiag::cli {

void register_pkeys_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "pkeys", "P_Key tables index by index, every view side by side (* marks disagreement)");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    auto show_empty = std::make_shared<bool>(false);
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->add_flag("--all", *show_empty, "List empty slots too");
    cmd->callback([&ctx, &exit, port, show_empty] {
        PKeysRenderOptions opt;
        opt.show_empty = *show_empty;
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
            print_json(render_pkeys_json(*got->snapshot, opt));
        } else {
            std::fputs(render_pkeys_text(*got->snapshot, opt).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli
