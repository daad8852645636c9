#pragma once
// What the collector measures about itself, beside the engine's snapshot: how long each source's
// polls take and how often they run. Wall-clock facts of this process, so they are not part of
// the engine's state (a replay would not have them).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/figure.hpp"
#include "collector/common/malloc_tuning.hpp"
#include "collector/common/time.hpp"

namespace rdmadiag::publish {

struct SourceTiming {
    std::string name;
    bool polled = false;                  // has a poll interval
    uint64_t polls = 0;                   // poll() and on_readable() calls
    uint64_t refreshes = 0;               // refresh() calls routed from the engine
    Duration last_duration{};             // of the last poll
    Duration total_duration{};            // of all polls
    uint64_t last_observations = 0;       // observations the last poll produced
    std::vector<common::Figure> figures;  // the source's own, after its last poll
    bool operator==(const SourceTiming&) const = default;
};

struct CollectorStats {
    std::vector<SourceTiming> sources;  // by name
    uint64_t loop_iterations = 0;
    uint64_t snapshots_published = 0;
    uint64_t reloads = 0;
    // Read when the stats were published (after the round gave its free heap back).
    std::optional<common::ProcessMemory> memory;
    bool operator==(const CollectorStats&) const = default;
};

}  // namespace rdmadiag::publish
