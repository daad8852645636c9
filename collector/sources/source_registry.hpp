#pragma once
// Names the sources rdmadiag can build and how. Sources are registered explicitly by
// register_builtin_sources(), never by static initialisers.

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_options.hpp"

namespace rdmadiag::sources {

// Settings every source may read. Roots are parameters so tests point them at fixtures.
struct SourceSettings {
    std::string sysfs_root = "/sys";
    std::string tracefs_root;  // empty: <sysfs_root>/kernel/tracing, then .../kernel/debug/tracing
    std::string procfs_root = "/proc";
    std::vector<std::string> include_devices;  // empty: all
    std::vector<std::string> exclude_devices;
    // The fast counter tier and the port state; the slow tier (collector/sources/counter_tiers.hpp)
    // every slow_counter_interval.
    Duration counter_interval = std::chrono::seconds(1);
    Duration slow_counter_interval = std::chrono::seconds(15);
    Duration pkey_interval = std::chrono::seconds(10);
    std::string scenario;  // simulated fabric scenario (name or path)
    // Source options as given (flags, config file): "mad.scope" -> "subnet". Sources do not read
    // these: resolve_source_options() checks them against the sources' declarations and fills
    // `options`, which they do read.
    std::map<std::string, std::string> extra;
    OptionValues options;

    bool device_selected(const std::string& device) const;
};

using SourceFactory = std::function<Result<std::unique_ptr<Source>>(const SourceSettings&)>;

struct SourceEntry {
    std::string name;
    std::string description;
    bool enabled_by_default = true;
    SourceFactory factory;
    std::span<const OptionSpec> options = {};  // declared beside the source's code
};

struct FoundOption {
    const SourceEntry* source = nullptr;
    const OptionSpec* spec = nullptr;
};

class SourceRegistry {
public:
    void add(SourceEntry entry);
    const SourceEntry* find(std::string_view name) const;
    // The source that declares option `key`, and its declaration; both null when none does.
    FoundOption find_option(std::string_view key) const;
    const std::vector<SourceEntry>& entries() const { return entries_; }

private:
    std::vector<SourceEntry> entries_;
};

// Reads settings.extra into settings.options: every key must be declared by a registered source
// and every value read as its type, within its bounds and past its source's checks; options not
// given take their defaults. Errors name the source: "mad source: mad.port must be ...".
Result<void> resolve_source_options(const SourceRegistry& registry, SourceSettings& settings);
// The same for one source's declarations alone (a program or test that builds one source).
Result<void> resolve_source_options(std::string_view source, std::span<const OptionSpec> specs,
                                    SourceSettings& settings);
// Checks one value as given on a command line, before the rest is known: the key is declared and
// the value reads as its type. resolve_source_options() still runs the checks across options.
Result<void> check_source_option(const SourceRegistry& registry, std::string_view key,
                                 std::string_view value);

}  // namespace rdmadiag::sources
