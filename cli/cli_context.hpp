#pragma once
// Options every subcommand shares, and the one-shot collection they all start from: ask a
// running daemon (--remote), play the simulated fabric (--simulate), or sample this machine's
// sources once — and fall back to the simulated fabric when the machine has no RDMA device.

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/collector_flags.hpp"
#include "collector/common/result.hpp"
#include "collector/model/snapshot.hpp"
#include "collector/runtime/collector_settings.hpp"
#include "collector/runtime/open_sources.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::cli {

struct CliContext {
    bool json = false;
    std::string remote;
    CollectorFlags flags;  // the shared flags, as given (cli/collector_flags.hpp)
    // Sources one-shot collection leaves out on purpose, with the reason the snapshot shows.
    std::map<std::string, std::string> withheld_sources;
    sources::SourceRegistry registry;
    // How every command opens its sources; tests replace it to see what a command line selects.
    std::function<Result<runtime::OpenedSources>(const sources::SourceRegistry&,
                                                 const runtime::CollectorSettings&)>
        open_sources = runtime::open_sources;

    // The defaults with the flags applied: what open_sources() builds from.
    runtime::CollectorSettings settings() const;
};

// Adds --json and --remote, and the flags every subcommand shares (add_collector_flags).
void add_common_options(CLI::App& command, CliContext& ctx);

struct Collected {
    SnapshotPtr snapshot;
    std::string origin;              // where the data came from, for headers
    std::vector<std::string> notes;  // said on stderr (e.g. "no RDMA device: simulating")
};

Result<Collected> collect_once(const CliContext& ctx);

// One run of the collector's loop on a clock that starts at `start`: a scenario plays to its
// end, live sources are sampled once.
struct SourcesRun {
    SnapshotPtr snapshot;
    std::vector<std::string> up;  // in registry order
    std::vector<runtime::DownSource> down;
};
Result<SourcesRun> run_sources_once(const CliContext& ctx,
                                    const runtime::CollectorSettings& settings, TimePoint start);

// The context with the MR sources on, for status, check and mrs: tracefs (reads the trace buffer
// once, changes nothing) always, unless switched off; netlink only when sysfs is the running
// kernel's (/sys), since RDMA netlink describes this machine and not a tree read with
// --path.sysfs. The probe stays off: a one-shot command would listen for a moment only.
CliContext with_mr_sources(const CliContext& ctx);
// The saved trace --trace named, or empty.
std::string saved_trace_file(const runtime::CollectorSettings& settings);
// The saved trace's lines the tracefs source could not read, as notes:
// "<file> line <n> skipped: <why>" (and how many more were not named).
std::vector<std::string> skipped_trace_lines(const Snapshot& snapshot);
// GET <base>/api/v1/snapshot from a running daemon.
Result<Collected> fetch_remote(const std::string& base);

// Prints notes to stderr; returns the process exit code for an Error.
int report_error(const Error& error);
void print_notes(const Collected& collected);

}  // namespace rdmadiag::cli
