#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/gid_change_follower.hpp"
#include "cli/render/gid_diff_render.hpp"
#include "cli/render/gids_render.hpp"
#include "cli/run_live.hpp"
#include "collector/engine/default_engine.hpp"

namespace rdmadiag::cli::commands {

void register_gids_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "gids",
        "GIDs index by index: the kernel's cache beside what the port and the SM hold, "
        "and on RoCE the netdev's addresses (* marks disagreement)");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    auto diff = std::make_shared<bool>(false);
    auto watch = std::make_shared<bool>(false);
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->add_flag("--diff", *diff, "Show the last change of each GID view, entry by entry");
    cmd->add_flag("--watch", *watch, "Print each GID view change as it happens, until interrupted");
    cmd->callback([&ctx, &exit, port, diff, watch] {
        PortRef filter;
        if (!port->empty()) {
            auto ref = parse_port_ref(*port);
            if (!ref) {
                exit.value = report_error(ref.error());
                return;
            }
            filter = *ref;
        }
        if (*watch) {
            auto engine = engine::make_default_engine();
            render::GidChangeFollower follower(*engine, filter, ctx.json);
            LiveOptions options;
            options.on_observation = [&follower](const Observation& o) {
                const std::string text = follower.seen(o);
                if (text.empty()) return;
                std::fputs(text.c_str(), stdout);
                std::fflush(stdout);
            };
            exit.value = run_live(ctx, *engine, options);
            return;
        }
        auto got = collect_once(ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (*diff) {
            if (ctx.json) {
                print_json(render::render_gid_diffs_json(*got->snapshot, filter));
            } else {
                std::fputs(render::render_gid_diffs_text(*got->snapshot, filter).c_str(), stdout);
            }
            return;
        }
        if (ctx.json) {
            print_json(render::render_gids_json(*got->snapshot, filter));
        } else {
            std::fputs(render::render_gids_text(*got->snapshot, filter).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli::commands
