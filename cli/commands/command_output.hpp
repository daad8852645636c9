#pragma once
// The shape every read-only command shares once its options are read: collect once, say on
// stderr why that failed (exit code 3) or what the collection notes, then print JSON with --json
// or else text. Written once here so that every command says its errors and notes alike.

#include <cstdio>
#include <string>

#include "cli/cli_context.hpp"
#include "cli/commands/commands.hpp"
#include "collector/json/checked_json.hpp"

namespace rdmadiag::cli::commands {

// The collection to print, or nullptr after saying why there is none and setting the exit code.
const Collected* collected_or_report(const Result<Collected>& got, ExitCode& exit);

// With --json `to_json()`, pretty-printed; else `to_text()`. Only the one asked for is rendered.
template <class ToJson, class ToText>
void print_view(const CliContext& ctx, ToJson&& to_json, ToText&& to_text) {
    if (ctx.json) {
        print_json(to_json());
    } else {
        std::fputs(to_text().c_str(), stdout);
    }
}

// A whole read-only command after its options: `got`'s error, or its notes and then its JSON or
// text view.
template <class ToJson, class ToText>
void show_collected(const CliContext& ctx, const Result<Collected>& got, ExitCode& exit,
                    ToJson&& to_json, ToText&& to_text) {
    const Collected* c = collected_or_report(got, exit);
    if (c == nullptr) return;
    print_view(
        ctx, [&] { return to_json(*c); }, [&] { return to_text(*c); });
}

// The same for a command whose views are of the snapshot alone, with the command's options.
template <class Options>
void show_snapshot(const CliContext& ctx, ExitCode& exit, const Options& options,
                   codec::Json (*to_json)(const Snapshot&, const Options&),
                   std::string (*to_text)(const Snapshot&, const Options&)) {
    show_collected(
        ctx, collect_once(ctx), exit,
        [&](const Collected& c) { return to_json(*c.snapshot, options); },
        [&](const Collected& c) { return to_text(*c.snapshot, options); });
}

// The DEVICE[:PORT] a command is limited to, into `filter` (left as it is for empty `text`);
// false after saying why `text` names no port and setting the exit code.
bool read_port_filter(const std::string& text, PortRef& filter, ExitCode& exit);

}  // namespace rdmadiag::cli::commands
