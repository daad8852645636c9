#include "collector/sources/source_registry.hpp"

#include <fnmatch.h>
#include <algorithm>

namespace rdmadiag::sources {

namespace {
bool matches_any(const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
        return fnmatch(p.c_str(), name.c_str(), 0) == 0;
    });
}
}  // namespace

bool SourceSettings::device_selected(const std::string& device) const {
    if (!include_devices.empty() && !matches_any(include_devices, device)) return false;
    return !matches_any(exclude_devices, device);
}

void SourceRegistry::add(SourceEntry entry) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const SourceEntry& e) { return e.name == entry.name; });
    if (it != entries_.end()) {
        *it = std::move(entry);
    } else {
        entries_.push_back(std::move(entry));
    }
}

const SourceEntry* SourceRegistry::find(std::string_view name) const {
    for (const auto& e : entries_) {
        if (e.name == name) return &e;
    }
    return nullptr;
}

}  // namespace rdmadiag::sources
