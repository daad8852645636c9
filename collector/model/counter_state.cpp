#include "collector/model/counter_state.hpp"

namespace rdmadiag {

CounterState to_counter_state(const CounterTrack& t, CounterName name) {
    CounterState s;
    s.name = name;
    s.kind = t.kind;
    s.width = t.width;
    s.lower_bound = t.lower_bound;
    s.raw = t.raw;
    s.total = t.total;
    s.saturated = t.saturated;
    s.resets = t.resets;
    s.wraps = t.wraps;
    s.updated = t.updated;
    s.last_increase = t.last_increase;
    s.saturations = t.saturations;
    s.saturated_since = t.saturated_since();
    s.last_reset = t.last_reset();
    return s;
}

CounterTrack to_counter_track(const CounterState& s, uint32_t name_id) {
    CounterTrack t;
    t.name_id = name_id;
    t.kind = s.kind;
    t.width = s.width;
    t.lower_bound = s.lower_bound;
    t.raw = s.raw;
    t.total = s.total;
    t.saturated = s.saturated;
    t.resets = s.resets;
    t.wraps = s.wraps;
    t.updated = s.updated;
    t.last_increase = s.last_increase;
    t.saturations = s.saturations;
    t.set_saturated_since(s.saturated_since);
    t.set_last_reset(s.last_reset);
    return t;
}

}  // namespace rdmadiag
