#pragma once
// Runs sources for the commands that watch or record: the simulated fabric with --simulate, else
// this machine's sources, every observation handed to `sink`, the engine's refresh requests routed
// back to the sources. Live runs last until SIGINT/SIGTERM or `duration`; a simulated scenario
// with an end plays on its own clock, as fast as possible, when `virtual_time` is set.

#include <optional>

#include "cli/cli_context.hpp"
#include "collector/engine/engine.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::cli {

struct LiveOptions {
    std::optional<Duration> duration;
    bool virtual_time = false;
};

// `sink` must pass each observation on to `engine` (so refresh requests appear). Returns the exit
// code: 0, or 3 when no source could run.
int run_sources(const CliContext& ctx, engine::Engine& engine, sources::ObservationSink& sink,
                const LiveOptions& options);

}  // namespace rdmadiag::cli
