#pragma once
// The interface every source implements. A source turns one kind of input (sysfs, MADs, verbs
// async events, tracefs, the probe, netlink, the simulated fabric, a recording) into Observations.
// Polled sources are called on their interval; event sources hand their file descriptors to the
// collector's loop and are called when one is readable. A source that has nothing on this machine
// says why through availability() and emits SourceStatus{up=false}; it never takes others down.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/figure.hpp"
#include "collector/model/observation.hpp"

namespace rdmadiag::sources {

class ObservationSink {
public:
    virtual ~ObservationSink() = default;
    virtual void emit(Observation obs) = 0;
};

// Collects observations in memory (one-shot CLI commands, tests).
class VectorSink final : public ObservationSink {
public:
    void emit(Observation obs) override { observations.push_back(std::move(obs)); }
    std::vector<Observation> observations;
};

struct Availability {
    bool available = false;
    std::string reason;  // why not, in words an operator can act on
};

class Source {
public:
    virtual ~Source() = default;

    virtual std::string_view name() const = 0;
    virtual Availability availability() const = 0;

    // Polled sources: how often poll() should run (zero: never polled).
    virtual Duration poll_interval() const { return Duration::zero(); }
    virtual void poll(TimePoint now, ObservationSink& sink) {
        (void)now;
        (void)sink;
    }

    // Event sources: descriptors to watch, and what to do when one is readable.
    virtual std::vector<int> event_fds() const { return {}; }
    virtual void on_readable(int fd, TimePoint now, ObservationSink& sink) {
        (void)fd;
        (void)now;
        (void)sink;
    }

    // Figures the source keeps about its own work, published beside the collector's timing of
    // it (the MAD source: sweeps, MADs sent, answered, retried, timed out).
    virtual std::vector<common::Figure> figures() const { return {}; }

    // Sources that play a finite timeline (the simulated fabric, a recording) say how long it is,
    // so one-shot commands can play it to its end on an injected clock.
    virtual std::optional<Duration> playback_length() const { return std::nullopt; }

    // Re-read one port now (after a PKEY_CHANGE, PORT_ACTIVE, ...). Sources that cannot ignore it.
    virtual void refresh(const PortRef& port, TimePoint now, ObservationSink& sink) {
        (void)port;
        (void)now;
        (void)sink;
    }
};

}  // namespace rdmadiag::sources
