#pragma once
// Runs the sources: polled ones on their schedule, event ones from one epoll loop. Feeds what
// they observe to the engine in time order, routes the engine's refresh requests back to the
// sources' refresh(), and publishes a snapshot after every round. One thread owns the sources
// and the engine; sinks only read the SnapshotStore.

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "collector/common/log.hpp"
#include "collector/daemon/epoll_loop.hpp"
#include "collector/daemon/poll_schedule.hpp"
#include "collector/engine/engine.hpp"
#include "collector/publish/collector_stats.hpp"
#include "collector/publish/snapshot_store.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::daemon {

struct RuntimeOptions {
    // Longest wait between rounds even with nothing due, so the engine's grace periods expire.
    Duration max_wait = std::chrono::seconds(1);
    // Rounds of refresh routing per step; a rule that keeps asking cannot spin the loop.
    int max_refresh_rounds = 4;
};

class CollectorRuntime {
public:
    CollectorRuntime(std::vector<std::unique_ptr<sources::Source>> sources, engine::Engine& engine,
                     publish::SnapshotStore& store, const Clock& clock, common::Logger& log,
                     RuntimeOptions options = {});
    ~CollectorRuntime();
    CollectorRuntime(const CollectorRuntime&) = delete;
    CollectorRuntime& operator=(const CollectorRuntime&) = delete;

    // Checks availability, registers event fds and schedules polls. Called once, before any step.
    void prepare();
    // One round at the clock's now: runs due polls (and, when `ready` is given, the event sources
    // whose descriptors are readable), feeds the engine, routes refreshes, publishes.
    void step(const std::vector<uint64_t>& ready = {});
    // How long the loop may sleep before the next poll is due (capped by max_wait).
    Duration time_to_next_poll() const;

    // Runs prepare() and then the loop on its own thread until stop().
    void start();
    void stop();
    bool running() const { return thread_.joinable(); }

    const publish::CollectorStats& stats() const { return stats_; }

private:
    struct Slot {
        std::unique_ptr<sources::Source> source;
        bool available = false;
        std::optional<size_t> schedule;
        size_t stats = 0;
    };
    struct EventFd {
        size_t slot;
        int fd;
    };

    void run_loop();
    void poll_slot(Slot& slot, TimePoint now);
    void read_slot(Slot& slot, int fd, TimePoint now);
    void flush();
    void route_refreshes();
    void publish();

    std::vector<Slot> slots_;
    std::vector<EventFd> event_fds_;
    engine::Engine& engine_;
    publish::SnapshotStore& store_;
    const Clock& clock_;
    common::Logger& log_;
    RuntimeOptions options_;
    PollSchedule schedule_;
    EpollLoop loop_;
    sources::VectorSink pending_;
    publish::CollectorStats stats_;
    bool prepared_ = false;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace rdmadiag::daemon
