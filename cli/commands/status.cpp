#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/status_render.hpp"

namespace rdmadiag::cli::commands {

void print_json(const codec::Json& j) {
    std::printf("%s\n", j.dump(2).c_str());
}

void register_status_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand("status", "Devices, ports, P_Key tables, counters and findings");
    add_common_options(*cmd, ctx);
    cmd->callback([&ctx, &exit] {
        auto got = collect_once(with_mr_sources(ctx));
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (ctx.json) {
            print_json(render::render_status_json(*got->snapshot, got->origin));
        } else {
            std::fputs(render::render_status_text(*got->snapshot, got->origin).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli::commands
