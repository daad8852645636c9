#pragma once
// Options every subcommand shares, and the one-shot collection they all start from: ask a
// running daemon (--remote), play the simulated fabric (--simulate), or sample this machine's
// sources once — and fall back to the simulated fabric when the machine has no RDMA device.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/model/snapshot.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::cli {

struct CliContext {
    std::string sysfs_root = "/sys";
    std::string tracefs_root;
    std::string scenario;  // --simulate[=SCENARIO]; "default" when given without a value
    bool simulate = false;
    bool json = false;
    std::string remote;
    std::vector<std::string> include_devices;
    std::vector<std::string> exclude_devices;
    std::string clock_start;  // fixes "now" for reproducible output (tests, bug reports)
    std::map<std::string, std::string> source_options;  // --source.opt key=value
    std::map<std::string, bool> source_switches;        // --source.NAME / --no-source.NAME
    // Sources one-shot collection leaves out on purpose, with the reason the snapshot shows.
    std::map<std::string, std::string> withheld_sources;
    sources::SourceRegistry registry;

    sources::SourceSettings source_settings() const;
    // Whether one-shot collection uses this source: switched on or off by flag, else its default.
    bool source_enabled(const sources::SourceEntry& entry) const;
    // The time one-shot collection treats as "now".
    Result<TimePoint> start_time() const;
};

// Adds --json, --path.sysfs, --path.tracefs, --simulate[=SCENARIO], --remote, device selection.
void add_common_options(CLI::App& command, CliContext& ctx);

struct Collected {
    SnapshotPtr snapshot;
    std::string origin;              // where the data came from, for headers
    std::vector<std::string> notes;  // said on stderr (e.g. "no RDMA device: simulating")
};

Result<Collected> collect_once(const CliContext& ctx);

// The context with the MR sources on, for status, check and mrs: tracefs (reads the trace buffer
// once, changes nothing) always, unless switched off; netlink only when sysfs is the running
// kernel's (/sys), since RDMA netlink describes this machine and not a tree read with
// --path.sysfs. The probe stays off: a one-shot command would listen for a moment only.
CliContext with_mr_sources(const CliContext& ctx);
// GET <base>/api/v1/snapshot from a running daemon.
Result<Collected> fetch_remote(const std::string& base);

// Prints notes to stderr; returns the process exit code for an Error.
int report_error(const Error& error);
void print_notes(const Collected& collected);

}  // namespace rdmadiag::cli
