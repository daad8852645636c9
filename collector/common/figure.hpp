#pragma once
// A figure a component keeps about its own work (MADs sent, sweeps run), published as a
// Prometheus metric named rdmadiag_<name> with the component's labels. Counters only grow.

#include <string>

namespace rdmadiag::common {

struct Figure {
    enum class Kind { counter, gauge };
    std::string name;  // "mad_sweep_mads_sent_total"
    std::string help;
    Kind kind = Kind::counter;
    double value = 0;
    bool operator==(const Figure&) const = default;
};

}  // namespace rdmadiag::common
