#pragma once
// One step of driving a source by hand (one-shot commands, offline playback): poll it at `now`,
// hand what it emitted to the engine in time order, route the rules' refresh requests back to it
// (a bounded number of rounds), and move the engine's clock to `now`.

#include "collector/engine/engine.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::engine {

void step_source(sources::Source& source, TimePoint now, Engine& engine);

}  // namespace rdmadiag::engine
