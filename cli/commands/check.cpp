#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/check_render.hpp"

namespace rdmadiag::cli::commands {

void register_check_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd =
        app.add_subcommand("check",
                           "Judge the findings once; monitoring-plugin output and exit code (0 OK, "
                           "1 WARNING, 2 CRITICAL, 3 UNKNOWN)");
    add_common_options(*cmd, ctx);
    auto strict = std::make_shared<bool>(false);
    cmd->add_flag("--warn-on-info", *strict, "Info findings alone make the status WARNING");
    add_trace_file_option(*cmd, ctx.flags);
    cmd->callback([&ctx, &exit, strict] {
        auto got = collect_once(with_mr_sources(ctx));
        if (!got) {
            std::printf("RDMADIAG UNKNOWN - %s\n", got.error().message.c_str());
            exit.value = static_cast<int>(render::CheckStatus::unknown);
            return;
        }
        render::CheckOptions options;
        options.info_is_ok = !*strict;
        const auto result = render::evaluate_check(*got->snapshot, options);
        print_view(
            ctx,
            [&] {
                return codec::Json{{"status", to_string(result.status)},
                                   {"exit_code", result.exit_code()},
                                   {"summary", result.summary},
                                   {"findings", got->snapshot->findings.size()}};
            },
            [&] { return render::render_check_text(result); });
        exit.value = result.exit_code();
    });
}

}  // namespace rdmadiag::cli::commands
