#pragma once
// The flags every subcommand shares, declared by one function, so `status`, `record`, `serve` and
// the rest accept the same spelling and select the same sources. A flag does not write the
// settings at once: it records an edit, applied in command-line order over the defaults (one-shot
// commands) or over the config file (serve), so a flag always wins over the file.

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

#include "collector/runtime/collector_settings.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::cli {

class CollectorFlags {
public:
    using Edit = std::function<void(runtime::CollectorSettings&)>;

    void add(Edit edit) { edits_.push_back(std::move(edit)); }
    void apply_to(runtime::CollectorSettings& settings) const;
    runtime::CollectorSettings applied() const;

private:
    std::vector<Edit> edits_;
};

// What --KEY VALUE and --source.opt KEY=VALUE do: set a source option. The key must be declared
// and the value read as its type, or CLI::ValidationError names `flag` and the source's words.
// `partitions` takes --intent and --sm-port-guid this way too.
CollectorFlags::Edit source_option_edit(const sources::SourceRegistry& registry,
                                        const std::string& flag, std::string key,
                                        std::string value);
// What --trace FILE does: the tracefs source reads that saved trace (the kernel's `trace` file
// as saved, or `trace-cmd report` output) instead of a tracefs mount, and is switched on.
CollectorFlags::Edit trace_file_edit(std::string path);
// Declares --trace FILE on the subcommands that read MR events once (mrs, check, record).
void add_trace_file_option(CLI::App& command, CollectorFlags& flags);
// Declares --path.sysfs, --path.tracefs, --path.procfs, --simulate[=SCENARIO],
// --device.include/--device.exclude (aliases --device/--exclude-device), --interval.counters,
// --interval.slow-counters, --interval.pkeys, --source.NAME/--no-source.NAME for every registered
// source, --KEY VALUE for every option a source declares (--partitions.conf,
// --partitions.sm-port-guid, --mad.scope, ...), --source.opt KEY=VALUE and --clock.start.
// Malformed values, unknown option keys and values their source would not read are parse errors.
void add_collector_flags(CLI::App& command, CollectorFlags& flags,
                         const sources::SourceRegistry& registry);

}  // namespace rdmadiag::cli
