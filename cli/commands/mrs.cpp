// `rdmadiag mrs [--state STATE] [--json]`: MR health. Reads what the MR sources can see once
// (tracefs trace buffer, RDMA netlink, plus sysfs for transports); with --path.tracefs=DIR it
// reads DIR/trace and nothing else stands in for it.

#include <cstdio>

#include "cli/commands/commands.hpp"
#include "cli/render/mrs_render.hpp"
#include "collector/engine/default_engine.hpp"

namespace rdmadiag::cli {

namespace {

// With an explicit tracefs root the trace is the point: no simulated fallback.
Result<Collected> collect_trace(const CliContext& ctx) {
    auto start = ctx.start_time();
    if (!start) return start.error();
    auto engine = engine::make_default_engine();
    engine->advance(*start);
    std::vector<std::string> notes;
    for (const auto& entry : ctx.registry.entries()) {
        if (!entry.enabled_by_default || entry.name == "sim" || entry.name == "replay") continue;
        auto src = entry.factory(ctx.source_settings());
        if (!src) {
            notes.push_back("source " + entry.name + ": " + src.error().message);
            continue;
        }
        sources::VectorSink sink;
        (*src)->poll(*start, sink);
        std::stable_sort(
            sink.observations.begin(), sink.observations.end(),
            [](const Observation& a, const Observation& b) { return a.time < b.time; });
        for (const auto& o : sink.observations) engine->consume(o);
        if (!(*src)->availability().available) {
            notes.push_back("source " + entry.name + ": " + (*src)->availability().reason);
        }
    }
    Collected c{engine->snapshot(), "tracefs at " + ctx.tracefs_root, std::move(notes)};
    return c;
}

}  // namespace

void register_mrs_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand("mrs", "Memory regions: state, time in state, owner and advice");
    add_common_options(*cmd, ctx);
    auto state = std::make_shared<std::string>();
    cmd->add_option("--state", *state,
                    "Only MRs in this state (valid, invalid, unknown, stuck, deregistered)")
        ->check(CLI::IsMember({"valid", "invalid", "unknown", "stuck", "deregistered"}));
    cmd->callback([&ctx, &exit, state] {
        MrsFilter filter;
        if (!state->empty()) filter.state = parse_mr_state(*state);
        CliContext mr_ctx = with_mr_sources(ctx);
        auto got = (!ctx.tracefs_root.empty() && !ctx.simulate && ctx.remote.empty())
                       ? collect_trace(mr_ctx)
                       : collect_once(mr_ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        if (ctx.json) {
            print_json(render_mrs_json(*got->snapshot, got->origin, filter));
        } else {
            std::fputs(render_mrs_text(*got->snapshot, got->origin, filter).c_str(), stdout);
        }
    });
}

}  // namespace rdmadiag::cli
