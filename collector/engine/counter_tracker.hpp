#pragma once
// Turns raw counter readings into a monotonic total. The hardware counters are narrow: they
// saturate at their width's maximum (IB PMA) or wrap, and a port or driver reset sets them back to
// zero. The exported total must never go backwards, whatever the raw value does.

#include "collector/model/counter_state.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag {

enum class CounterChange : uint8_t { first, unchanged, increased, wrapped, reset };

// Applies one reading to `state` (creating it on the first reading) and says what happened.
CounterChange apply_counter_sample(CounterState& state, const CounterSample& sample, TimePoint when,
                                   bool fresh);

}  // namespace rdmadiag
