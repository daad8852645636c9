#pragma once
// Virtual time: the runtime's own loop on a ManualClock that jumps to the next due poll instead
// of sleeping. One-shot collection, `record --simulate` and the GUI's offline playback play a
// scenario this way, so they see what serve would have seen, only faster.

#include "collector/runtime/collector_runtime.hpp"

namespace rdmadiag::runtime {

enum class AtEnd {
    poll,     // the end is a round of its own with every polled source polled (play to the end)
    advance,  // the engine only moves to the end; polls stay on their grid (seeking)
};

// Runs every round due up to `end` at its due time, then a round at `end`.
void play_until(CollectorRuntime& runtime, ManualClock& clock, TimePoint end,
                AtEnd at_end = AtEnd::poll);

}  // namespace rdmadiag::runtime

namespace rdmadiag::runtime {

// One-shot collection at the clock's now: when every running source plays a timeline (the
// simulated fabric, a recording) it is played to its end, else each source is sampled once.
void run_once(CollectorRuntime& runtime, ManualClock& clock);

}  // namespace rdmadiag::runtime
