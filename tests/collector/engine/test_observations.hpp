#pragma once
// Builders for observations in engine tests.

#include "collector/model/observation.hpp"

namespace rdmadiag::test {

inline TimePoint at(double seconds) {
    return TimePoint{Duration{static_cast<int64_t>(seconds * 1e9)}};
}

inline Observation obs(double seconds, ObservationBody body, std::string source = "test") {
    return Observation{at(seconds), std::move(source), std::move(body)};
}

inline CounterSample counter(const char* dev, uint32_t port, const char* name, uint64_t value,
                             uint8_t width = 64) {
    CounterSample c;
    c.port = PortRef{dev, port};
    c.name = name;
    c.value = value;
    c.width = width;
    return c;
}

inline PKeyTableSample pkeys(const char* dev, uint32_t port, std::vector<uint16_t> keys,
                             PKeyView view = PKeyView::device) {
    PKeyTableSample s;
    s.port = PortRef{dev, port};
    s.view = view;
    s.table.keys = std::move(keys);
    return s;
}

}  // namespace rdmadiag::test
