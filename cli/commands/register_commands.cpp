#include "cli/commands/commands.hpp"

namespace rdmadiag::cli::commands {

void register_commands(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    register_status_command(app, ctx, exit);
    register_pkeys_command(app, ctx, exit);
    register_gids_command(app, ctx, exit);
    register_partitions_command(app, ctx, exit);
    register_consumers_command(app, ctx, exit);
    register_counters_command(app, ctx, exit);
    register_events_command(app, ctx, exit);
    register_mrs_command(app, ctx, exit);
    register_check_command(app, ctx, exit);
    register_record_command(app, ctx, exit);
    register_replay_command(app, ctx, exit);
}

}  // namespace rdmadiag::cli::commands
