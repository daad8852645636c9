#include "collector/runtime/virtual_playback.hpp"

namespace rdmadiag::runtime {

void play_until(CollectorRuntime& runtime, ManualClock& clock, TimePoint end, AtEnd at_end) {
    runtime.prepare();
    for (auto due = runtime.next_due(); due && *due < end; due = runtime.next_due()) {
        clock.set(std::max(*due, clock.now()));
        runtime.step();
    }
    clock.set(std::max(end, clock.now()));
    if (at_end == AtEnd::poll) runtime.poll_all_at(clock.now());
    runtime.step();
    // What a playback leaves is its state at the end, the times things were read included.
    runtime.publish_current();
}

}  // namespace rdmadiag::runtime

namespace rdmadiag::runtime {

void run_once(CollectorRuntime& runtime, ManualClock& clock) {
    runtime.prepare();
    if (auto length = runtime.playback_length()) {
        play_until(runtime, clock, clock.now() + *length);
    } else {
        runtime.step();
        runtime.publish_current();
    }
}

}  // namespace rdmadiag::runtime
