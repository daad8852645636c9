#include "collector/probe/probe_clocks.hpp"

#include <gtest/gtest.h>

#include "collector/probe/include/rdmadiag_probe_layout.h"

namespace rdmadiag::probe {
namespace {

// A record's stamp is the client's word. probe_messages_fuzz found a monotonic stamp beyond
// INT64_MAX that made `now - stamp` overflow (undefined): such stamps, like those from the future
// or older than five minutes, date the record now.
TEST(ProbeRecordAge, BelievableStampsGiveTheirAge) {
    const ProbeClockReadings c{1000, 1'000'000'000, 3000, 3'000'000'000};
    EXPECT_EQ(probe_record_age_ns(2'999'999'000, RDMADIAG_CLOCK_MONOTONIC, c), 1000);
    EXPECT_EQ(probe_record_age_ns(3'000'000'000, RDMADIAG_CLOCK_MONOTONIC, c), 0);
    // 2000 ticks took 2 s: a tick is 1 ms.
    EXPECT_EQ(probe_record_age_ns(2990, RDMADIAG_CLOCK_TSC, c), 10'000'000);
}

TEST(ProbeRecordAge, UnbelievableStampsAreDatedNow) {
    const ProbeClockReadings c{1000, 1'000'000'000, 3000, 400'000'000'000};
    for (uint64_t stamp : {uint64_t{400'000'000'001}, uint64_t{1} << 63, UINT64_MAX,
                           uint64_t{9223372036854774807ULL} + 2000, uint64_t{0}}) {
        EXPECT_EQ(probe_record_age_ns(stamp, RDMADIAG_CLOCK_MONOTONIC, c), 0) << stamp;
    }
    EXPECT_EQ(probe_record_age_ns(3001, RDMADIAG_CLOCK_TSC, c), 0);  // from the future
    EXPECT_EQ(probe_record_age_ns(0, RDMADIAG_CLOCK_TSC, c), 0);     // over five minutes ago
    const ProbeClockReadings fast_ticks{0, 0, UINT64_MAX, INT64_MAX};
    EXPECT_EQ(probe_record_age_ns(0, RDMADIAG_CLOCK_TSC, fast_ticks), 0);
    const ProbeClockReadings no_time_passed{1000, 5, 1000, 5};
    EXPECT_EQ(probe_record_age_ns(10, RDMADIAG_CLOCK_TSC, no_time_passed), 0);
}

// Clocks a test moves by hand.
int64_t mono_ns = 0;
uint64_t tsc = 0;
int64_t manual_monotonic_ns() {
    return mono_ns;
}
uint64_t manual_tsc() {
    return tsc;
}

TEST(ProbeClockCalibration, TicksAreCalibratedBetweenTheStartAndTheLastReading) {
    mono_ns = 1'000'000'000;
    tsc = 1000;
    ProbeClockCalibration clocks(ProbeClocks{&manual_monotonic_ns, &manual_tsc});
    EXPECT_EQ(clocks.readings().tsc0, 1000u);
    EXPECT_EQ(clocks.readings().mono0, 1'000'000'000);
    const TimePoint now{std::chrono::hours(1)};
    // No time has passed yet: no rate is known, so a TSC stamp is dated now.
    EXPECT_EQ(clocks.record_time(900, RDMADIAG_CLOCK_TSC, now), now);

    mono_ns = 3'000'000'000;
    tsc = 3000;
    clocks.read_now();
    EXPECT_EQ(clocks.readings().tsc_now, 3000u);
    EXPECT_EQ(clocks.readings().tsc0, 1000u) << "the start stays where it was";
    EXPECT_EQ(clocks.record_time(2990, RDMADIAG_CLOCK_TSC, now),
              now - std::chrono::milliseconds(10));
    EXPECT_EQ(clocks.record_time(2'999'999'000, RDMADIAG_CLOCK_MONOTONIC, now),
              now - std::chrono::microseconds(1));
}

}  // namespace
}  // namespace rdmadiag::probe
