#pragma once
// Plays a recording back through the collector as if its sources were live. Observations keep
// their recorded times, so the engine reaches the same findings at any speed; the speed only sets
// how fast they are handed over: `speed` times real time, or everything as fast as the engine
// takes it (speed 0).

#include <optional>
#include <vector>

#include "collector/replay/recording_reader.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::replay {

struct ReplaySettings {
    double speed = 1.0;   // 0: as fast as possible
    size_t batch = 4096;  // as fast as possible: observations per poll
};

class ReplaySource final : public sources::Source {
public:
    ReplaySource(Recording recording, ReplaySettings settings);

    std::string_view name() const override { return "replay"; }
    sources::Availability availability() const override;
    Duration poll_interval() const override;
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    // At a speed, the recorded span over the speed: polled on a clock that starts at the first
    // observation's time, speed 1 hands each observation over at its recorded time. As fast as
    // possible has no length on any clock.
    std::optional<Duration> playback_length() const override;

    bool finished() const { return next_ >= recording_.observations.size(); }
    size_t played() const { return next_; }
    const Recording& recording() const { return recording_; }
    // When (on the caller's clock) the next observation is due; nullopt when finished or not
    // started.
    std::optional<TimePoint> next_due() const;

private:
    Recording recording_;
    ReplaySettings settings_;
    size_t next_ = 0;
    std::optional<TimePoint> started_;
};

}  // namespace rdmadiag::replay
