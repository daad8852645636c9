#pragma once
// The commands that watch or record (events --follow, pkeys --watch, record) run the collector's
// own loop (collector/runtime/) on the sources the shared flags select: live until SIGINT/SIGTERM
// or `duration`, or, for a simulated scenario in virtual time, on a ManualClock from start to
// end as fast as possible. Either way the engine sees what serve would have seen.

#include <functional>
#include <optional>

#include "cli/cli_context.hpp"
#include "collector/engine/engine.hpp"

namespace rdmadiag::cli {

struct LiveOptions {
    std::optional<Duration> duration;
    bool virtual_time = false;
    // Every observation, right after the engine consumed it.
    std::function<void(const Observation&)> on_observation;
};

// Returns the exit code: 0; 2 for settings that cannot run; 3 when no source can run.
int run_live(const CliContext& ctx, engine::Engine& engine, const LiveOptions& options);

}  // namespace rdmadiag::cli
