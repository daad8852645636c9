#include "collector/daemon/collector_runtime.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

namespace rdmadiag::daemon {

namespace {

Duration wall_elapsed(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - start);
}

}  // namespace

CollectorRuntime::CollectorRuntime(std::vector<std::unique_ptr<sources::Source>> sources,
                                   engine::Engine& engine, publish::SnapshotStore& store,
                                   const Clock& clock, common::Logger& log, RuntimeOptions options)
    : engine_(engine), store_(store), clock_(clock), log_(log), options_(options) {
    std::sort(sources.begin(), sources.end(),
              [](const auto& a, const auto& b) { return a->name() < b->name(); });
    for (auto& s : sources) {
        publish::SourceTiming timing;
        timing.name = std::string(s->name());
        stats_.sources.push_back(timing);
        slots_.push_back(Slot{std::move(s), false, std::nullopt, stats_.sources.size() - 1});
    }
}

CollectorRuntime::~CollectorRuntime() {
    stop();
}

void CollectorRuntime::prepare() {
    if (prepared_) return;
    prepared_ = true;
    TimePoint now = clock_.now();
    for (size_t i = 0; i < slots_.size(); ++i) {
        auto& slot = slots_[i];
        std::string name(slot.source->name());
        sources::Availability a;
        try {
            a = slot.source->availability();
        } catch (const std::exception& e) {
            a = sources::Availability{false, std::string("availability check failed: ") + e.what()};
        }
        slot.available = a.available;
        if (!a.available) {
            log_.warn("source unavailable", {{"source", name}, {"reason", a.reason}});
            pending_.emit(Observation{now, name, SourceStatus{false, a.reason}});
            continue;
        }
        pending_.emit(Observation{now, name, SourceStatus{true, ""}});
        if (slot.source->poll_interval() > Duration::zero()) {
            slot.schedule = schedule_.add(slot.source->poll_interval(), now);
            stats_.sources[slot.stats].polled = true;
        }
        for (int fd : slot.source->event_fds()) {
            auto added = loop_.add(fd, event_fds_.size());
            if (!added) {
                log_.error("cannot watch event descriptor",
                           {{"source", name}, {"error", added.error().message}});
                pending_.emit(Observation{
                    now, name, SampleError{name, added.error().message, added.error().code}});
                continue;
            }
            event_fds_.push_back(EventFd{i, fd});
        }
        log_.info("source started",
                  {{"source", name},
                   {"interval", format_duration(slot.source->poll_interval())},
                   {"event_fds", std::to_string(slot.source->event_fds().size())}});
    }
    flush();
    publish();
}

void CollectorRuntime::poll_slot(Slot& slot, TimePoint now) {
    auto& timing = stats_.sources[slot.stats];
    size_t before = pending_.observations.size();
    auto start = std::chrono::steady_clock::now();
    try {
        slot.source->poll(now, pending_);
    } catch (const std::exception& e) {
        std::string name(slot.source->name());
        log_.error("source poll failed", {{"source", name}, {"error", e.what()}});
        pending_.emit(Observation{now, name, SampleError{name, e.what(), 0}});
    }
    timing.last_duration = wall_elapsed(start);
    timing.total_duration += timing.last_duration;
    timing.last_observations = pending_.observations.size() - before;
    ++timing.polls;
}

void CollectorRuntime::read_slot(Slot& slot, int fd, TimePoint now) {
    auto& timing = stats_.sources[slot.stats];
    auto start = std::chrono::steady_clock::now();
    try {
        slot.source->on_readable(fd, now, pending_);
    } catch (const std::exception& e) {
        std::string name(slot.source->name());
        log_.error("event source failed", {{"source", name}, {"error", e.what()}});
        pending_.emit(Observation{now, name, SampleError{name, e.what(), 0}});
    }
    timing.total_duration += wall_elapsed(start);
    ++timing.polls;
}

void CollectorRuntime::flush() {
    auto& obs = pending_.observations;
    std::stable_sort(obs.begin(), obs.end(),
                     [](const Observation& a, const Observation& b) { return a.time < b.time; });
    for (const auto& o : obs) engine_.consume(o);
    obs.clear();
}

void CollectorRuntime::route_refreshes() {
    for (int round = 0; round < options_.max_refresh_rounds; ++round) {
        auto ports = engine_.take_refresh_requests();
        if (ports.empty()) return;
        std::sort(ports.begin(), ports.end());
        ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
        TimePoint now = clock_.now();
        for (const auto& port : ports) {
            for (auto& slot : slots_) {
                if (!slot.available) continue;
                try {
                    slot.source->refresh(port, now, pending_);
                } catch (const std::exception& e) {
                    std::string name(slot.source->name());
                    pending_.emit(
                        Observation{now, name, SampleError{port.to_string(), e.what(), 0}});
                }
                ++stats_.sources[slot.stats].refreshes;
            }
        }
        flush();
    }
    // Requests beyond the last round wait for the next step.
}

void CollectorRuntime::publish() {
    store_.publish(engine_.snapshot());
    ++stats_.snapshots_published;
    store_.publish_stats(stats_);
}

void CollectorRuntime::step(const std::vector<uint64_t>& ready) {
    if (!prepared_) prepare();
    ++stats_.loop_iterations;
    TimePoint now = clock_.now();
    for (uint64_t tag : ready) {
        if (tag >= event_fds_.size()) continue;
        const auto& e = event_fds_[tag];
        read_slot(slots_[e.slot], e.fd, now);
    }
    for (size_t index : schedule_.take_due(now)) {
        for (auto& slot : slots_) {
            if (slot.schedule == index) poll_slot(slot, now);
        }
    }
    flush();
    route_refreshes();
    engine_.advance(clock_.now());
    publish();
}

Duration CollectorRuntime::time_to_next_poll() const {
    auto due = schedule_.next_due();
    if (!due) return options_.max_wait;
    auto wait = *due - clock_.now();
    if (wait < Duration::zero()) return Duration::zero();
    return std::min(wait, options_.max_wait);
}

void CollectorRuntime::start() {
    if (thread_.joinable()) return;
    stopping_ = false;
    prepare();
    thread_ = std::thread([this] { run_loop(); });
}

void CollectorRuntime::run_loop() {
    while (!stopping_) {
        auto ready = loop_.wait(time_to_next_poll());
        if (stopping_) break;
        step(ready);
    }
}

void CollectorRuntime::stop() {
    if (!thread_.joinable()) return;
    stopping_ = true;
    loop_.wake();
    thread_.join();
}

}  // namespace rdmadiag::daemon
