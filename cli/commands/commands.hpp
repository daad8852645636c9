#pragma once
// One function per subcommand registers it on the app. Each subcommand's action runs after
// parsing and sets the process exit code in CliContext-independent state it owns.

#include <CLI/CLI.hpp>

#include "cli/cli_context.hpp"
#include "collector/json/checked_json.hpp"

namespace rdmadiag::cli::commands {

// The exit code the chosen subcommand's action produced.
struct ExitCode {
    int value = 0;
};

// Every subcommand but serve (which needs the HTTP server and lives in its own library).
void register_commands(CLI::App& app, CliContext& ctx, ExitCode& exit);

void register_status_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_pkeys_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_gids_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_consumers_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_partitions_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_counters_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_events_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_mrs_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_check_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_record_command(CLI::App& app, CliContext& ctx, ExitCode& exit);
void register_replay_command(CLI::App& app, CliContext& ctx, ExitCode& exit);

// Runs the sources live and prints async events until SIGINT/SIGTERM; returns the exit code.
int follow_events(const CliContext& ctx);

// Prints JSON as every command prints it: indented, one newline at the end.
void print_json(const codec::Json& j);

}  // namespace rdmadiag::cli::commands
