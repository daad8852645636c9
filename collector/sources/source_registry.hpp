#pragma once
// Names the sources rdmadiag can build and how. Sources are registered explicitly by
// register_builtin_sources(), never by static initialisers.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/source.hpp"

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
    std::string scenario;                      // simulated fabric scenario (name or path)
    std::map<std::string, std::string> extra;  // source-specific options, "mad.scope" -> "subnet"

    bool device_selected(const std::string& device) const;
};

using SourceFactory = std::function<Result<std::unique_ptr<Source>>(const SourceSettings&)>;

struct SourceEntry {
    std::string name;
    std::string description;
    bool enabled_by_default = true;
    SourceFactory factory;
};

class SourceRegistry {
public:
    void add(SourceEntry entry);
    const SourceEntry* find(std::string_view name) const;
    const std::vector<SourceEntry>& entries() const { return entries_; }

private:
    std::vector<SourceEntry> entries_;
};

}  // namespace rdmadiag::sources
