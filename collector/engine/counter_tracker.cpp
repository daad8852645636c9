#include "collector/engine/counter_tracker.hpp"

namespace rdmadiag::engine {

namespace {

uint64_t add_saturating(uint64_t a, uint64_t b) {
    return a > ~uint64_t{0} - b ? ~uint64_t{0} : a + b;
}

// Event counts stop at their width rather than wrap back to zero.
void count_one(uint32_t& n) {
    if (n < UINT32_MAX) ++n;
}

void note_saturation(CounterTrack& state, TimePoint when) {
    const bool now_saturated = state.width < 64 && state.raw == counter_max(state.width);
    if (now_saturated && !state.saturated) {
        state.set_saturated_since(when);
        count_one(state.saturations);
        state.lower_bound = true;
    }
    if (!now_saturated) state.set_saturated_since(std::nullopt);
    state.saturated = now_saturated;
}

}  // namespace

uint8_t effective_counter_width(const CounterSample& sample) {
    uint8_t width = sample.width;
    if (width == 0 || width > 64) width = counter_width(sample.kind, sample.name);
    if (sample.value > counter_max(width)) width = 64;
    return width;
}

CounterChange apply_counter_sample(CounterTrack& state, const CounterSample& sample, TimePoint when,
                                   bool fresh) {
    const uint8_t width = effective_counter_width(sample);
    const uint64_t raw = sample.value;
    if (fresh) {
        state.kind = sample.kind;
        state.width = width;
        state.raw = raw;
        state.total = raw;
        state.updated = when;
        state.saturated = false;
        note_saturation(state, when);
        return CounterChange::first;
    }
    state.updated = when;
    if (width != state.width) {
        // Another reading path (PortCounters vs PortCountersExtended): the two raw values are not
        // comparable, so take a new baseline and count nothing across the switch.
        state.width = width;
        state.raw = raw;
        state.saturated = false;
        note_saturation(state, when);
        return CounterChange::rebased;
    }
    const uint64_t max = counter_max(width);
    CounterChange change = CounterChange::unchanged;
    if (raw > state.raw) {
        state.total = add_saturating(state.total, raw - state.raw);
        state.last_increase = when;
        change = CounterChange::increased;
    } else if (raw < state.raw) {
        // A narrow counter that was in its top quarter and is now in its bottom quarter has most
        // likely wrapped; anything else going down is a reset (port reset, driver reload, or a
        // PortCounters clear by someone's perfquery -R). A saturated counter never wraps: it was
        // cleared.
        const uint64_t quarter = max / 4;
        const bool wrap =
            width < 64 && !state.saturated && state.raw >= max - quarter && raw <= quarter;
        if (wrap) {
            state.total = add_saturating(state.total, (max - state.raw) + raw + 1);
            count_one(state.wraps);
            state.last_increase = when;
            change = CounterChange::wrapped;
        } else {
            // What happened between the last reading and the reset is lost; what came after it
            // is the new raw value.
            state.total = add_saturating(state.total, raw);
            count_one(state.resets);
            state.set_last_reset(when);
            state.lower_bound = true;
            if (raw > 0) state.last_increase = when;
            change = CounterChange::reset;
        }
    }
    state.raw = raw;
    note_saturation(state, when);
    return change;
}

CounterChange apply_counter_sample(CounterState& state, const CounterSample& sample, TimePoint when,
                                   bool fresh) {
    CounterTrack track = to_counter_track(state);
    const CounterChange change = apply_counter_sample(track, sample, when, fresh);
    state = to_counter_state(track, fresh ? CounterName(sample.name) : state.name);
    return change;
}

}  // namespace rdmadiag::engine
