#pragma once
// The clocks that probe records are stamped with, and how the collector dates a record from its
// stamp. A probe stamps with CLOCK_MONOTONIC or with the TSC; the collector calibrates TSC ticks
// against CLOCK_MONOTONIC from two readings of both, one at its start and one at each drain, so
// no tick rate has to be known or trusted.

#include <cstdint>

#include "collector/common/time.hpp"

namespace rdmadiag::probe {

// The clocks as this machine has them. Fuzzing hands in clocks of its own, so that a run does
// not depend on when it runs.
int64_t system_monotonic_ns();
uint64_t system_tsc();
struct ProbeClocks {
    int64_t (*monotonic_ns)() = &system_monotonic_ns;
    uint64_t (*tsc)() = &system_tsc;
};

// The clocks as the collector last read them: at the start (0) and at this poll (now).
struct ProbeClockReadings {
    uint64_t tsc0 = 0;
    int64_t mono0 = 0;
    uint64_t tsc_now = 0;
    int64_t mono_now = 0;
};
// How long ago a record stamped `stamp` on `clock` (RDMADIAG_CLOCK_*) happened, in ns; 0 for a
// stamp that cannot be believed (from the future, older than five minutes, beyond any clock).
int64_t probe_record_age_ns(uint64_t stamp, uint32_t clock, const ProbeClockReadings& clocks);

// The readings kept up to date: taken at construction, and again at each read_now().
class ProbeClockCalibration {
public:
    explicit ProbeClockCalibration(ProbeClocks clocks);

    // Reads both clocks again: call it before dating the records of a drain.
    void read_now();
    const ProbeClockReadings& readings() const { return readings_; }
    // When a record stamped `stamp` on `clock` happened, `now` being the time of the last read.
    TimePoint record_time(uint64_t stamp, uint32_t clock, TimePoint now) const;

private:
    ProbeClocks clocks_;
    ProbeClockReadings readings_;
};

}  // namespace rdmadiag::probe
