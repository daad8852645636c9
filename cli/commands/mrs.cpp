// `rdmadiag mrs [--state STATE] [--by-process] [--json]`: MR health, or with --by-process who
// holds the MRs (RDMA netlink). Reads what the MR sources can see once
// (tracefs trace buffer, RDMA netlink, plus sysfs for transports); with --path.tracefs=DIR it
// reads DIR/trace, with --trace FILE a saved trace, and nothing else stands in for either.

#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/mr_usage_render.hpp"
#include "cli/render/mrs_render.hpp"

namespace rdmadiag::cli::commands {

namespace {

// With an explicit tracefs root the trace is the point: no simulated fallback, and every source
// that is down is said, not only when none ran.
Result<Collected> collect_trace(const CliContext& ctx, std::string origin) {
    const auto settings = ctx.settings();
    const auto start = RDMADIAG_TRY(settings.start_time());
    auto run = RDMADIAG_TRY(run_sources_once(ctx, settings, start));
    std::vector<std::string> notes;
    for (const auto& d : run.down) {
        if (!settings.withheld.count(d.name)) notes.push_back("source " + d.name + ": " + d.reason);
    }
    for (auto& line : skipped_trace_lines(*run.snapshot)) notes.push_back(std::move(line));
    return Collected{run.snapshot, std::move(origin), std::move(notes)};
}

}  // namespace

void register_mrs_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand("mrs", "Memory regions: state, time in state, owner and advice");
    add_common_options(*cmd, ctx);
    auto state = std::make_shared<std::string>();
    cmd->add_option("--state", *state,
                    "Only MRs in this state (valid, invalid, unknown, awaiting_teardown, stuck, "
                    "deregistered)")
        ->check(CLI::IsMember(
            {"valid", "invalid", "unknown", "awaiting_teardown", "stuck", "deregistered"}));
    auto by_process = std::make_shared<bool>(false);
    cmd->add_flag("--by-process", *by_process,
                  "Who holds the MRs: MRs and registered bytes per process (RDMA netlink), "
                  "per device against max_mr");
    add_trace_file_option(*cmd, ctx.flags);
    cmd->callback([&ctx, &exit, state, by_process] {
        render::MrsFilter filter;
        if (!state->empty()) filter.state = parse_mr_state(*state);
        CliContext mr_ctx = with_mr_sources(ctx);
        const auto settings = ctx.settings();
        const std::string trace_file = saved_trace_file(settings);
        const bool local = !settings.simulate && ctx.remote.empty();
        auto got = local && !trace_file.empty() ? collect_trace(mr_ctx, "saved trace " + trace_file)
                   : local && !settings.sources.tracefs_root.empty()
                       ? collect_trace(mr_ctx, "tracefs at " + settings.sources.tracefs_root)
                       : collect_once(mr_ctx);
        if (*by_process) {
            show_collected(
                ctx, got, exit,
                [](const Collected& c) {
                    return render::render_mr_usage_json(*c.snapshot, c.origin);
                },
                [](const Collected& c) {
                    return render::render_mr_usage_text(*c.snapshot, c.origin);
                });
            return;
        }
        show_collected(
            ctx, got, exit,
            [&](const Collected& c) {
                return render::render_mrs_json(*c.snapshot, c.origin, filter);
            },
            [&](const Collected& c) {
                return render::render_mrs_text(*c.snapshot, c.origin, filter);
            });
    });
}

}  // namespace rdmadiag::cli::commands
