#pragma once
// `rdmadiag serve`: the long-running collector with its HTTP endpoint (/metrics, /api/v1/...,
// /healthz). Flags follow node_exporter (--web.listen-address, --path.sysfs, --source.X,
// --no-source.X, ...) and, but for web.* and log.*, are the ones every subcommand takes; a config
// file (--config.file) holds the same settings and flags win.
// SIGTERM/SIGINT stop it cleanly, SIGHUP re-reads the config file and the web config.

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cli/cli_context.hpp"
#include "cli/collector_flags.hpp"
#include "cli/commands/commands.hpp"
#include "collector/daemon/daemon_config.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::cli::commands {

// What was given on the command line; unset values leave the file's (or the default) in place.
struct ServeFlags {
    std::optional<std::string> config_file;
    std::optional<std::string> listen_address;
    std::optional<std::string> web_config_file;
    std::optional<size_t> max_connections;
    std::optional<size_t> max_pending_connections;
    std::optional<std::string> request_timeout;
    std::optional<std::string> log_level, log_format;
    std::optional<std::string> metrics_detail;
    // The flags every subcommand shares (paths, devices, intervals, sources, --simulate),
    // applied over the config file's collector settings.
    cli::CollectorFlags collector;
};

// Declares serve's own flags and the shared ones (cli::add_collector_flags) on `cmd`.
void add_serve_flags(CLI::App& cmd, ServeFlags& flags, const sources::SourceRegistry& registry);

// Defaults, then the config file, then the flags; the source options checked against `registry`
// (a wrong one is refused at start-up, and a reload that brings one keeps the running config).
Result<daemon::DaemonConfig> resolve_serve_config(const ServeFlags& flags,
                                                  const sources::SourceRegistry& registry);

struct ServeHooks {
    // Called once the HTTP server listens, with its bound port (tests start on port 0).
    std::function<void(int port)> on_listening;
};

// Runs until SIGTERM or SIGINT. Returns the process exit code. The calling thread must be the
// main thread and no other thread may run yet (the signal mask is inherited).
int run_serve(const ServeFlags& flags, const sources::SourceRegistry& registry,
              ServeHooks hooks = {});

// With default settings on a machine without RDMA devices, serve the simulated fabric rather
// than nothing (the README's first command works anywhere). Returns the note to log, if any.
std::optional<std::string> simulate_when_no_device(daemon::DaemonConfig& config,
                                                   const sources::SourceRegistry& registry);

void register_serve_command(CLI::App& app, CliContext& ctx, ExitCode& exit);

}  // namespace rdmadiag::cli::commands
