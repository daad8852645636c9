#include "collector/probe/probe_clocks.hpp"

#include <time.h>

#include "collector/probe/include/rdmadiag_probe_layout.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace rdmadiag::probe {

int64_t system_monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

uint64_t system_tsc() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return 0;
#endif
}

int64_t probe_record_age_ns(uint64_t stamp, uint32_t clock, const ProbeClockReadings& c) {
    // The stamp is the client's word: one from the future, from before the collector knew the
    // client, older than five minutes or beyond any clock is not believable (age 0: dated now).
    constexpr int64_t kMaxAgeNs =
        std::chrono::duration_cast<Duration>(std::chrono::minutes(5)).count();
    if (clock == RDMADIAG_CLOCK_MONOTONIC) {
        if (c.mono_now < 0) return 0;
        const auto now_ns = static_cast<uint64_t>(c.mono_now);
        if (stamp > now_ns || now_ns - stamp > static_cast<uint64_t>(kMaxAgeNs)) return 0;
        return static_cast<int64_t>(now_ns - stamp);
    }
    if (stamp <= c.tsc_now && c.tsc_now > c.tsc0 && c.mono_now > c.mono0) {
        const double ns_per_tick =
            static_cast<double>(c.mono_now - c.mono0) / static_cast<double>(c.tsc_now - c.tsc0);
        const double ns = static_cast<double>(c.tsc_now - stamp) * ns_per_tick;
        if (ns <= static_cast<double>(kMaxAgeNs)) return static_cast<int64_t>(ns);
    }
    return 0;
}

ProbeClockCalibration::ProbeClockCalibration(ProbeClocks clocks) : clocks_(clocks) {
    readings_.tsc0 = readings_.tsc_now = clocks_.tsc();
    readings_.mono0 = readings_.mono_now = clocks_.monotonic_ns();
}

void ProbeClockCalibration::read_now() {
    readings_.tsc_now = clocks_.tsc();
    readings_.mono_now = clocks_.monotonic_ns();
}

TimePoint ProbeClockCalibration::record_time(uint64_t stamp, uint32_t clock, TimePoint now) const {
    return now - Duration{probe_record_age_ns(stamp, clock, readings_)};
}

}  // namespace rdmadiag::probe
