#include "collector/replay/replay_source.hpp"

#include <chrono>
#include <cmath>

namespace rdmadiag::replay {

ReplaySource::ReplaySource(Recording recording, ReplaySettings settings)
    : recording_(std::move(recording)), settings_(settings) {
    if (settings_.speed < 0) settings_.speed = 0;
    if (settings_.batch == 0) settings_.batch = 1;
}

sources::Availability ReplaySource::availability() const {
    if (recording_.observations.empty()) {
        return {false, "the recording holds no observations"};
    }
    return {true, {}};
}

Duration ReplaySource::poll_interval() const {
    // Real-time playback is polled often enough to keep sub-second spacing; as fast as possible
    // is polled back to back.
    return settings_.speed > 0 ? Duration{std::chrono::milliseconds(10)} : Duration{1};
}

std::optional<Duration> ReplaySource::playback_length() const {
    const auto& obs = recording_.observations;
    if (settings_.speed <= 0 || obs.empty()) return std::nullopt;
    const auto span = std::chrono::duration<double, std::nano>(obs.back().time - obs.front().time);
    // Rounded up, so playing to the end reaches the last observation.
    return Duration{static_cast<int64_t>(std::ceil(span.count() / settings_.speed))};
}

std::optional<TimePoint> ReplaySource::next_due() const {
    if (!started_ || finished()) return std::nullopt;
    if (settings_.speed <= 0) return *started_;
    const auto& first = recording_.observations.front().time;
    const auto offset = recording_.observations[next_].time - first;
    return *started_ + std::chrono::duration_cast<Duration>(offset / settings_.speed);
}

void ReplaySource::poll(TimePoint now, sources::ObservationSink& sink) {
    if (finished()) return;
    if (!started_) started_ = now;
    const auto& obs = recording_.observations;
    if (settings_.speed <= 0) {
        for (size_t n = 0; n < settings_.batch && !finished(); ++n) sink.emit(obs[next_++]);
        return;
    }
    const TimePoint first = obs.front().time;
    const auto elapsed = std::chrono::duration<double, std::nano>(now - *started_).count();
    const auto reached = first + Duration{static_cast<int64_t>(elapsed * settings_.speed)};
    while (!finished() && obs[next_].time <= reached) sink.emit(obs[next_++]);
}

}  // namespace rdmadiag::replay
