#pragma once
// The settings every front end shares: where the sources read from, which devices and sources
// are used, the simulated scenario, and what "now" is. serve, the one-shot commands, record and
// the watching commands all fill this one struct (flags, and for serve a config file), so the
// same command line selects the same sources everywhere.

#include <map>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::runtime {

struct CollectorSettings {
    // Roots, device selection, intervals and source options, as the sources read them.
    // `sources.scenario` is ignored: `simulate` says which scenario plays.
    sources::SourceSettings sources;
    std::optional<std::string> simulate;          // scenario; "" for the default one
    std::map<std::string, bool> source_switches;  // --source.X / --no-source.X
    // Sources left out on purpose, selected or not, reported down with this reason.
    std::map<std::string, std::string> withheld;
    std::string clock_start;  // RFC 3339; fixes "now" for reproducible output

    // What the sources are built from: `sources` with the scenario filled in.
    sources::SourceSettings source_settings() const;
    std::string scenario() const;
    // The time a run starts at: clock_start, else the system clock.
    Result<TimePoint> start_time() const;
};

}  // namespace rdmadiag::runtime
