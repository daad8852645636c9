#pragma once
// Sources for the collector's tests: a polled one that hands out a script of observations, and
// an event one that reads lines from a pipe the test writes to.

#include <unistd.h>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "collector/sources/source.hpp"

namespace rdmadiag::testing {

class ScriptedSource final : public sources::Source {
public:
    using Step = std::function<std::vector<ObservationBody>(TimePoint now)>;

    ScriptedSource(std::string name, Duration interval, Step step)
        : name_(std::move(name)), interval_(interval), step_(std::move(step)) {}

    std::string_view name() const override { return name_; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override {
        ++polls;
        poll_times.push_back(now);
        for (auto& body : step_(now)) sink.emit(Observation{now, name_, std::move(body)});
    }
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override {
        refreshed.push_back(port);
        if (on_refresh) {
            for (auto& body : on_refresh(port)) sink.emit(Observation{now, name_, std::move(body)});
        }
    }

    sources::Availability availability_{true, ""};
    int polls = 0;
    std::vector<TimePoint> poll_times;
    std::vector<PortRef> refreshed;
    std::function<std::vector<ObservationBody>(const PortRef&)> on_refresh;

private:
    std::string name_;
    Duration interval_;
    Step step_;
};

// Each line written to the pipe becomes an AsyncEvent PKEY_CHANGE on "<device>:<port>". With
// `opens_on_first_poll` it is polled every second and hands out its descriptor only once it
// has been polled, as a source that opens its device lazily does.
class PipeEventSource final : public sources::Source {
public:
    PipeEventSource() {
        if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
    }
    ~PipeEventSource() override {
        for (int fd : fds_) {
            if (fd >= 0) ::close(fd);
        }
    }
    std::string_view name() const override { return "events"; }
    sources::Availability availability() const override { return {fds_[0] >= 0, "pipe failed"}; }
    Duration poll_interval() const override {
        return opens_on_first_poll ? Duration(std::chrono::seconds(1)) : Duration::zero();
    }
    void poll(TimePoint, sources::ObservationSink&) override { polled_ = true; }
    std::vector<int> event_fds() const override {
        if (opens_on_first_poll && !polled_) return {};
        return {fds_[0]};
    }
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override {
        char buf[256];
        ssize_t n = ::read(fd, buf, sizeof buf);
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] != '\n') continue;
            sink.emit(Observation{now, "events",
                                  AsyncEvent{"mlx5_0", 1, AsyncEventType::pkey_change, {}}});
        }
    }
    int write_end() const { return fds_[1]; }

    bool opens_on_first_poll = false;

private:
    int fds_[2];
    bool polled_ = false;
};

}  // namespace rdmadiag::testing
