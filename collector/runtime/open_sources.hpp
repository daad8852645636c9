#pragma once
// The one place sources are chosen and built from settings. serve, the one-shot commands,
// record, events --follow and pkeys --watch all call it, so they run the same sources.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/runtime/collector_settings.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::runtime {

// Name of the source that plays the simulated fabric.
constexpr std::string_view kSimulatedSourceName = "sim";

struct DownSource {
    std::string name;
    std::string reason;
};

struct OpenedSources {
    std::vector<std::unique_ptr<sources::Source>> sources;
    // Not running: selected but the factory failed, or withheld by the settings. The runtime
    // reports each as SourceStatus{up=false} with the reason.
    std::vector<DownSource> down;
    std::vector<std::string> names;  // every selected source, in registry order
};

// Each registered source's default, on when an option of its that names what it reads is given
// (OptionSpec::switches_source_on), then the switches. With `simulate` only the simulated
// fabric runs, plus what is switched on. Errors: an unknown source name, simulate
// without a simulated fabric in this build.
Result<std::vector<std::string>> select_sources(const sources::SourceRegistry& registry,
                                                const CollectorSettings& settings);

// Whether an option given asks for its source (OptionSpec::switches_source_on), as a switch would.
bool asked_for_by_options(const sources::SourceRegistry& registry,
                          const CollectorSettings& settings);

// The selected sources built from the settings, their options resolved first
// (sources::resolve_source_options): a wrong option is an error, not a source down.
Result<OpenedSources> open_sources(const sources::SourceRegistry& registry,
                                   const CollectorSettings& settings);

}  // namespace rdmadiag::runtime
