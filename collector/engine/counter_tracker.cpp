#include "collector/engine/counter_tracker.hpp"

namespace rdmadiag {

CounterChange apply_counter_sample(CounterState& state, const CounterSample& sample, TimePoint when,
                                   bool fresh) {
    const uint8_t width = sample.width == 0 ? 64 : sample.width;
    const uint64_t max = counter_max(width);
    const uint64_t raw = sample.value & max;
    CounterChange change = CounterChange::unchanged;
    if (fresh) {
        state.name = sample.name;
        state.kind = sample.kind;
        state.width = width;
        state.raw = raw;
        state.total = raw;
        state.updated = when;
        state.saturated = width < 64 && raw == max;
        return CounterChange::first;
    }
    state.width = width;
    if (raw > state.raw) {
        state.total += raw - state.raw;
        state.last_increase = when;
        change = CounterChange::increased;
    } else if (raw < state.raw) {
        // A narrow counter that was in its top quarter and is now in its bottom quarter has most
        // likely wrapped; anything else going down is a reset (port reset, driver reload, or a
        // PortCounters clear by someone's perfquery -r).
        const uint64_t quarter = max / 4;
        const bool wrap = width < 64 && !state.saturated && state.raw >= max - quarter &&
                          raw <= quarter;
        if (wrap) {
            state.total += (max - state.raw) + raw + 1;
            ++state.wraps;
            state.last_increase = when;
            change = CounterChange::wrapped;
        } else {
            state.total += raw;
            ++state.resets;
            if (raw > 0) state.last_increase = when;
            change = CounterChange::reset;
        }
    }
    state.raw = raw;
    state.saturated = width < 64 && raw == max;
    state.updated = when;
    return change;
}

}  // namespace rdmadiag
