#include "collector/runtime/open_sources.hpp"

#include <algorithm>
#include <exception>

namespace rdmadiag::runtime {

namespace {

// A source whose option names what it reads (partitions.conf, a saved trace) has nothing else to
// do, so giving the option is asking for the source.
bool asked_for_by_option(const sources::SourceEntry& entry, const sources::SourceSettings& s) {
    return std::any_of(entry.options.begin(), entry.options.end(),
                       [&](const sources::OptionSpec& o) {
                           return o.switches_source_on && s.extra.count(std::string(o.key));
                       });
}

}  // namespace

bool asked_for_by_options(const sources::SourceRegistry& registry,
                          const CollectorSettings& settings) {
    return std::any_of(registry.entries().begin(), registry.entries().end(),
                       [&](const auto& e) { return asked_for_by_option(e, settings.sources); });
}

Result<std::vector<std::string>> select_sources(const sources::SourceRegistry& registry,
                                                const CollectorSettings& settings) {
    for (const auto& [name, on] : settings.source_switches) {
        if (!registry.find(name)) return make_error("unknown source '" + name + "'");
    }
    if (settings.simulate && !registry.find(kSimulatedSourceName))
        return make_error("--simulate: this build has no simulated fabric source");
    std::vector<std::string> out;
    for (const auto& e : registry.entries()) {
        bool on = settings.simulate ? e.name == kSimulatedSourceName : e.enabled_by_default;
        if (asked_for_by_option(e, settings.sources)) on = true;
        auto it = settings.source_switches.find(e.name);
        if (it != settings.source_switches.end()) on = it->second;
        if (on) out.push_back(e.name);
    }
    return out;
}

Result<OpenedSources> open_sources(const sources::SourceRegistry& registry,
                                   const CollectorSettings& settings) {
    auto names = RDMADIAG_TRY(select_sources(registry, settings));
    sources::SourceSettings source_settings = settings.source_settings();
    // Every front end comes through here, so a wrong option stops each of them before any source
    // runs, and a reload that brings one keeps what runs.
    RDMADIAG_TRY(sources::resolve_source_options(registry, source_settings));
    OpenedSources opened;
    for (const auto& name : names) {
        if (auto w = settings.withheld.find(name); w != settings.withheld.end()) {
            opened.down.push_back(DownSource{name, w->second});
            continue;
        }
        const sources::SourceEntry* entry = registry.find(name);
        Result<std::unique_ptr<sources::Source>> made = make_error("no factory");
        // A factory that throws is a source that cannot run here, not a reason to stop.
        try {
            made = entry->factory(source_settings);
        } catch (const std::exception& e) {
            made = make_error(e.what());
        }
        if (made && *made) {
            opened.sources.push_back(std::move(*made));
        } else {
            opened.down.push_back(
                DownSource{name, made ? "source could not be built" : made.error().message});
        }
    }
    // A source withheld on purpose is said to be down even when it was not selected, so the
    // reason shows where one would look for it.
    for (const auto& [name, reason] : settings.withheld) {
        if (registry.find(name) && std::find(names.begin(), names.end(), name) == names.end())
            opened.down.push_back(DownSource{name, reason});
    }
    opened.names = std::move(names);
    return opened;
}

}  // namespace rdmadiag::runtime
