#include <cstdio>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/pkey_diff_render.hpp"
#include "cli/render/pkeys_render.hpp"
#include "cli/render/table_change_gate.hpp"
#include "cli/run_live.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/json/pkey_diff_json.hpp"

namespace rdmadiag::cli::commands {

namespace {

// Prints every table change the engine records, as it happens. The engine records one only when a
// read of a port's table differs from the last, so the others need no snapshot.
class ChangePrinter {
public:
    ChangePrinter(engine::Engine& engine, const render::PKeysRenderOptions& options, bool json)
        : engine_(engine), options_(options), json_(json) {}
    // Called after the engine consumed `obs`.
    void seen(const Observation& obs) {
        const auto* sample = std::get_if<PKeyTableSample>(&obs.body);
        if (sample == nullptr || !gate_.changed(sample->port, sample->view, sample->table)) return;
        const auto snap = engine_.snapshot();
        const auto& changes = snap->pkey_changes;
        size_t from = 0;
        if (last_) {
            for (size_t i = changes.size(); i > 0; --i) {
                if (changes[i - 1] == *last_) {
                    from = i;
                    break;
                }
            }
        }
        for (size_t i = from; i < changes.size(); ++i) {
            if (!render::port_matches(options_.filter, changes[i].port)) continue;
            if (json_) {
                std::printf(
                    "%s\n",
                    render::pkey_diff_json_with_consumers(changes[i], *snap).dump().c_str());
            } else {
                std::fputs(render::render_pkey_diff(changes[i], snap.get()).c_str(), stdout);
            }
        }
        if (!changes.empty()) last_ = changes.back();
        std::fflush(stdout);
    }

private:
    engine::Engine& engine_;
    render::PKeysRenderOptions options_;
    bool json_;
    std::optional<PKeyDiff> last_;
    render::TableChangeGate<PKeyView, PKeyTable> gate_;
};

}  // namespace

void register_pkeys_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "pkeys", "P_Key tables index by index, every view side by side (* marks disagreement)");
    add_common_options(*cmd, ctx);
    auto port = std::make_shared<std::string>();
    auto show_empty = std::make_shared<bool>(false);
    cmd->add_option("port", *port, "DEVICE[:PORT] to show (default: all)");
    cmd->add_flag("--all", *show_empty, "List empty slots too");
    auto diff = std::make_shared<bool>(false);
    auto watch = std::make_shared<bool>(false);
    cmd->add_flag("--diff", *diff, "Show each port's last table change, index by index");
    cmd->add_flag("--watch", *watch, "Print each table change as it happens, until interrupted");
    cmd->callback([&ctx, &exit, port, show_empty, diff, watch] {
        render::PKeysRenderOptions opt;
        opt.show_empty = *show_empty;
        if (!read_port_filter(*port, opt.filter, exit)) return;
        if (*watch) {
            auto engine = engine::make_default_engine();
            ChangePrinter printer(*engine, opt, ctx.json);
            LiveOptions options;
            options.on_observation = [&printer](const Observation& o) { printer.seen(o); };
            exit.value = run_live(ctx, *engine, options);
            return;
        }
        // --diff shows the same collection another way.
        const auto to_json = *diff ? render::render_pkey_diffs_json : render::render_pkeys_json;
        const auto to_text = *diff ? render::render_pkey_diffs_text : render::render_pkeys_text;
        show_snapshot(ctx, exit, opt, to_json, to_text);
    });
}

}  // namespace rdmadiag::cli::commands
