#pragma once
// Turns raw counter readings into a monotonic total. The hardware counters are narrow: they
// saturate at their width's maximum (IB PMA) or wrap, and a port or driver reset sets them back to
// zero. The exported total must never go backwards, whatever the raw value does.

#include "collector/model/counter_state.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag::engine {

enum class CounterChange : uint8_t {
    first,      // first reading: the baseline
    unchanged,  // same value (a saturated counter stays here however many events happen)
    increased,
    wrapped,  // went down across the width's boundary: counted as an increase
    reset,    // went down otherwise: cleared by a reset, the new value counted from zero
    rebased,  // the width changed: new baseline, nothing counted
};

// The width a reading is taken at: the sample's own when it gives one (1..64), else what rdmadiag
// knows of the counter's name; a value that does not fit the claimed width widens it to 64 bits
// rather than being cut.
uint8_t effective_counter_width(const CounterSample& sample);

// Applies one reading to `state` (creating it on the first reading) and says what happened.
CounterChange apply_counter_sample(CounterTrack& state, const CounterSample& sample, TimePoint when,
                                   bool fresh);
// The same on the snapshot's form; a fresh state takes the sample's name.
CounterChange apply_counter_sample(CounterState& state, const CounterSample& sample, TimePoint when,
                                   bool fresh);

}  // namespace rdmadiag::engine
