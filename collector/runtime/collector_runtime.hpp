#pragma once
// The one loop that drives sources, for every front end: serve's collector thread, record,
// events --follow and pkeys --watch on the calling thread, one-shot collection and offline
// playback on a ManualClock (virtual_playback.hpp). Polled sources run on their schedule, event
// sources from one epoll loop. Each round's observations are sorted stably by time before the
// engine sees them, the engine's refresh requests are de-duplicated and routed back to the
// sources, and a snapshot is published after every round. A source that throws is reported down
// (SourceStatus{up=false} with the reason) and costs only itself.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "collector/common/log.hpp"
#include "collector/engine/engine.hpp"
#include "collector/publish/collector_stats.hpp"
#include "collector/publish/snapshot_store.hpp"
#include "collector/runtime/epoll_loop.hpp"
#include "collector/runtime/open_sources.hpp"
#include "collector/runtime/poll_schedule.hpp"
#include "collector/runtime/round_sink.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::runtime {

struct RuntimeOptions {
    // Longest wait between rounds even with nothing due, so the engine's grace periods expire.
    Duration max_wait = std::chrono::seconds(1);
    // Rounds of refresh routing per step; a rule that keeps asking cannot spin the loop.
    int max_refresh_rounds = 4;
    // A round that read only what the last one read publishes no new snapshot until the last is
    // this old (Engine::snapshot_on_change): the times things were read lag by less than this,
    // and a new value, state or finding is published by the round that saw it. A scrape interval.
    Duration reading_times_refresh = std::chrono::seconds(15);
    // Sees every observation right after the engine consumed it, in the engine's order: a
    // recording made through it replays exactly what the engine saw.
    std::function<void(const Observation&)> on_observation;
};

class CollectorRuntime {
public:
    CollectorRuntime(std::vector<std::unique_ptr<sources::Source>> sources, engine::Engine& engine,
                     publish::SnapshotStore& store, const Clock& clock, common::Logger& log,
                     RuntimeOptions options = {});
    // The sources open_sources() built; its down ones are reported down with their reasons.
    CollectorRuntime(OpenedSources opened, engine::Engine& engine, publish::SnapshotStore& store,
                     const Clock& clock, common::Logger& log, RuntimeOptions options = {});
    ~CollectorRuntime();
    CollectorRuntime(const CollectorRuntime&) = delete;
    CollectorRuntime& operator=(const CollectorRuntime&) = delete;

    // Checks availability, registers event fds and schedules polls. Called once, before any step.
    // Descriptors a source hands out later (after a poll) are watched from then on.
    void prepare();
    // One round at the clock's now: runs due polls (and, when `ready` is given, the event sources
    // whose descriptors are readable), feeds the engine, routes refreshes, publishes.
    void step(const std::vector<uint64_t>& ready = {});
    // Publishes the engine's current state even where a round would have kept the last snapshot
    // (RuntimeOptions::reading_times_refresh): the end of a playback, a one-shot reading.
    void publish_current();
    // How long the loop may sleep before the next poll is due (capped by max_wait).
    Duration time_to_next_poll() const;
    // When the next poll is due; nothing when no source is polled.
    std::optional<TimePoint> next_due() const;
    // Makes every polled source due at `when` (the end of a virtual playback).
    void poll_all_at(TimePoint when);

    // Runs the loop on the calling thread until `stop` is set or the clock reaches `deadline`.
    void run_until(const std::atomic<bool>& stop, std::optional<TimePoint> deadline = {});
    // Runs prepare() and then the loop on its own thread until stop().
    void start();
    void stop();
    bool running() const { return thread_.joinable(); }

    // The longest timeline the running sources play; nothing when one of them runs live.
    std::optional<Duration> playback_length() const;
    // Sources that are up (available and not failing), in name order.
    std::vector<std::string> up_sources() const;
    // Sources reported down, with the reason, in the order they went down.
    const std::vector<DownSource>& down_sources() const { return down_; }

    const publish::CollectorStats& stats() const { return stats_; }

private:
    struct Slot {
        std::unique_ptr<sources::Source> source;
        bool available = false;
        bool failing = false;  // the last call threw; up again after a call that does not
        std::optional<size_t> schedule;
        size_t stats = 0;
        std::vector<int> fds_seen;  // event descriptors registered, or that failed to be
    };
    struct EventFd {
        size_t slot;
        int fd;
    };

    void add_slot(std::unique_ptr<sources::Source> source);
    // Watches the source's event descriptors that are not watched yet: at prepare(), and after
    // each of its polls, since a source may open one only when first polled.
    void watch_event_fds(size_t index, TimePoint now);
    void wait_and_step(std::atomic<bool> const& stop, std::optional<TimePoint> deadline);
    void poll_slot(Slot& slot, TimePoint now);
    void read_slot(Slot& slot, int fd, TimePoint now);
    void refresh_slot(Slot& slot, const PortRef& port, TimePoint now);
    void failed(Slot& slot, TimePoint now, const std::string& what, const std::string& subject);
    void succeeded(Slot& slot, TimePoint now);
    void flush();
    void feed(std::vector<Observation>& batch);
    void route_refreshes();
    void publish(bool give_back_heap = false);
    // Publishes `snap` unless the store already holds it; true when it did.
    bool publish_if_new(SnapshotPtr snap);

    std::vector<Slot> slots_;
    std::vector<EventFd> event_fds_;
    std::vector<DownSource> down_;
    engine::Engine& engine_;
    publish::SnapshotStore& store_;
    const Clock& clock_;
    common::Logger& log_;
    RuntimeOptions options_;
    PollSchedule schedule_;
    EpollLoop loop_;
    RoundSink pending_;
    uint64_t emitted_at_trim_ = 0;  // pending_.emitted() when the heap was last given back
    std::chrono::steady_clock::time_point memory_read_{};
    publish::CollectorStats stats_;
    bool prepared_ = false;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace rdmadiag::runtime
