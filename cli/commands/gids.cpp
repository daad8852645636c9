#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/gid_change_follower.hpp"
#include "cli/render/gid_diff_render.hpp"
#include "cli/render/gids_render.hpp"
#include "cli/run_live.hpp"
#include "collector/engine/default/default_engine.hpp"

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
        if (!read_port_filter(*port, filter, exit)) return;
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
        // --diff shows the same collection another way.
        const auto to_json = *diff ? render::render_gid_diffs_json : render::render_gids_json;
        const auto to_text = *diff ? render::render_gid_diffs_text : render::render_gids_text;
        show_snapshot(ctx, exit, filter, to_json, to_text);
    });
}

}  // namespace rdmadiag::cli::commands
