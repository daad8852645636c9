#include "collector/runtime/collector_settings.hpp"

namespace rdmadiag::runtime {

std::string CollectorSettings::scenario() const {
    if (!simulate || simulate->empty()) return "default";
    return *simulate;
}

sources::SourceSettings CollectorSettings::source_settings() const {
    sources::SourceSettings s = sources;
    s.scenario = simulate ? scenario() : std::string();
    return s;
}

Result<TimePoint> CollectorSettings::start_time() const {
    if (clock_start.empty()) return SystemClock{}.now();
    return parse_time(clock_start);
}

}  // namespace rdmadiag::runtime
