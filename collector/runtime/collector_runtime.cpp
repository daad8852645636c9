#include "collector/runtime/collector_runtime.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "collector/common/malloc_tuning.hpp"

namespace rdmadiag::runtime {

namespace {

Duration wall_elapsed(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - start);
}

// Stands in for a source that could not be built, so it shows as down (up=0 with the reason)
// instead of silently missing.
class DownPlaceholder final : public sources::Source {
public:
    explicit DownPlaceholder(DownSource down) : down_(std::move(down)) {}
    std::string_view name() const override { return down_.name; }
    sources::Availability availability() const override { return {false, down_.reason}; }

private:
    DownSource down_;
};

std::vector<std::unique_ptr<sources::Source>> with_placeholders(OpenedSources opened) {
    auto all = std::move(opened.sources);
    for (auto& d : opened.down) all.push_back(std::make_unique<DownPlaceholder>(std::move(d)));
    return all;
}

// Observations fed to the engine at a time: 1.6 MB of them, a few milliseconds of engine work.
constexpr size_t kRoundBatch = 4096;
// About 800 ports of a subnet pass; a host's sysfs rounds stay far below it.
constexpr uint64_t kTrimAfterObservations = 20000;
constexpr auto kMemoryReadEvery = std::chrono::seconds(10);
// The loop sleeps on the monotonic clock until a poll that is due on the runtime's clock (the
// wall clock, live). Waking this much after the due time, a wall clock that is being slewed
// (by up to 500 ppm) cannot make the loop wake a moment before the poll and then once more.
constexpr auto kWakeMargin = std::chrono::milliseconds(1);

}  // namespace

CollectorRuntime::CollectorRuntime(std::vector<std::unique_ptr<sources::Source>> sources,
                                   engine::Engine& engine, publish::SnapshotStore& store,
                                   const Clock& clock, common::Logger& log, RuntimeOptions options)
    : engine_(engine),
      store_(store),
      clock_(clock),
      log_(log),
      options_(std::move(options)),
      pending_(kRoundBatch, [this](std::vector<Observation>& batch) { feed(batch); }) {
    // Name order makes a round's emission order, and so the stable sort's tie-break, the same
    // whatever order the sources were opened in.
    std::stable_sort(sources.begin(), sources.end(),
                     [](const auto& a, const auto& b) { return a->name() < b->name(); });
    for (auto& s : sources) add_slot(std::move(s));
}

CollectorRuntime::CollectorRuntime(OpenedSources opened, engine::Engine& engine,
                                   publish::SnapshotStore& store, const Clock& clock,
                                   common::Logger& log, RuntimeOptions options)
    : CollectorRuntime(with_placeholders(std::move(opened)), engine, store, clock, log,
                       std::move(options)) {}

CollectorRuntime::~CollectorRuntime() {
    stop();
}

void CollectorRuntime::add_slot(std::unique_ptr<sources::Source> source) {
    publish::SourceTiming timing;
    timing.name = std::string(source->name());
    stats_.sources.push_back(timing);
    slots_.push_back(
        Slot{std::move(source), false, false, std::nullopt, stats_.sources.size() - 1});
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
            down_.push_back(DownSource{name, a.reason});
            pending_.emit(Observation{now, name, SourceStatus{false, a.reason}});
            continue;
        }
        pending_.emit(Observation{now, name, SourceStatus{true, ""}});
        if (slot.source->poll_interval() > Duration::zero()) {
            slot.schedule = schedule_.add(slot.source->poll_interval(), now);
            stats_.sources[slot.stats].polled = true;
        }
        watch_event_fds(i, now);
        log_.info("source started",
                  {{"source", name},
                   {"interval", format_duration(slot.source->poll_interval())},
                   {"event_fds", std::to_string(slot.source->event_fds().size())}});
    }
    flush();
    publish();
}

void CollectorRuntime::watch_event_fds(size_t index, TimePoint now) {
    Slot& slot = slots_[index];
    const std::string name(slot.source->name());
    for (int fd : slot.source->event_fds()) {
        if (std::find(slot.fds_seen.begin(), slot.fds_seen.end(), fd) != slot.fds_seen.end())
            continue;
        slot.fds_seen.push_back(fd);  // a descriptor that cannot be watched is said so once
        auto added = loop_.add(fd, event_fds_.size());
        if (!added) {
            log_.error("cannot watch event descriptor",
                       {{"source", name}, {"error", added.error().message}});
            pending_.emit(Observation{
                now, name, SampleError{name, added.error().message, added.error().code}});
            continue;
        }
        event_fds_.push_back(EventFd{index, fd});
    }
}

void CollectorRuntime::failed(Slot& slot, TimePoint now, const std::string& what,
                              const std::string& subject) {
    std::string name(slot.source->name());
    log_.error("source failed", {{"source", name}, {"error", what}});
    pending_.emit(Observation{now, name, SampleError{subject, what, 0}});
    if (!slot.failing) {
        slot.failing = true;
        down_.push_back(DownSource{name, what});
        pending_.emit(Observation{now, name, SourceStatus{false, what}});
    }
}

void CollectorRuntime::succeeded(Slot& slot, TimePoint now) {
    if (!slot.failing) return;
    slot.failing = false;
    pending_.emit(Observation{now, std::string(slot.source->name()), SourceStatus{true, ""}});
}

void CollectorRuntime::poll_slot(Slot& slot, TimePoint now) {
    auto& timing = stats_.sources[slot.stats];
    const uint64_t before = pending_.emitted();
    auto start = std::chrono::steady_clock::now();
    try {
        slot.source->poll(now, pending_);
        succeeded(slot, now);
    } catch (const std::exception& e) {
        failed(slot, now, e.what(), std::string(slot.source->name()));
    }
    timing.last_duration = wall_elapsed(start);
    timing.total_duration += timing.last_duration;
    timing.last_observations = pending_.emitted() - before;
    timing.figures = slot.source->figures();
    ++timing.polls;
}

void CollectorRuntime::read_slot(Slot& slot, int fd, TimePoint now) {
    auto& timing = stats_.sources[slot.stats];
    auto start = std::chrono::steady_clock::now();
    try {
        slot.source->on_readable(fd, now, pending_);
        succeeded(slot, now);
    } catch (const std::exception& e) {
        failed(slot, now, e.what(), std::string(slot.source->name()));
    }
    timing.total_duration += wall_elapsed(start);
    ++timing.polls;
}

void CollectorRuntime::refresh_slot(Slot& slot, const PortRef& port, TimePoint now) {
    try {
        slot.source->refresh(port, now, pending_);
    } catch (const std::exception& e) {
        failed(slot, now, e.what(), port.to_string());
    }
    ++stats_.sources[slot.stats].refreshes;
}

void CollectorRuntime::flush() {
    pending_.flush();
}

void CollectorRuntime::feed(std::vector<Observation>& batch) {
    for (const auto& o : batch) {
        engine_.consume(o);
        if (options_.on_observation) options_.on_observation(o);
    }
}

void CollectorRuntime::route_refreshes() {
    for (int round = 0; round < options_.max_refresh_rounds; ++round) {
        auto ports = engine_.take_refresh_requests();
        if (ports.empty()) return;
        // Several rules (or several events) asking for one port cost one re-read.
        std::sort(ports.begin(), ports.end());
        ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
        TimePoint now = clock_.now();
        for (const auto& port : ports) {
            for (auto& slot : slots_) {
                if (slot.available) refresh_slot(slot, port, now);
            }
        }
        flush();
    }
    // Requests beyond the last round wait for the next step.
}

bool CollectorRuntime::publish_if_new(SnapshotPtr snap) {
    if (snap == store_.latest()) return false;
    store_.publish(std::move(snap));
    ++stats_.snapshots_published;
    return true;
}

void CollectorRuntime::publish_current() {
    if (publish_if_new(engine_.snapshot())) store_.publish_stats(stats_);
}

void CollectorRuntime::publish(bool give_back_heap) {
    publish_if_new(engine_.snapshot_on_change(options_.reading_times_refresh));
    const auto wall = std::chrono::steady_clock::now();
    // Small rounds free a little each (replaced devices, scrape and API buffers on the server's
    // threads): given back every few seconds too, so it does not pile up as resident free heap.
    if (wall - memory_read_ >= kMemoryReadEvery) give_back_heap = true;
    if (give_back_heap) {
        common::release_free_heap();
        emitted_at_trim_ = pending_.emitted();
    }
    // mallinfo2 walks the heap's free lists: read after a give-back only.
    if (give_back_heap || !stats_.memory || wall - memory_read_ >= kMemoryReadEvery) {
        stats_.memory = common::read_process_memory();
        memory_read_ = wall;
    }
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
        for (size_t i = 0; i < slots_.size(); ++i) {
            if (slots_[i].schedule != index) continue;
            poll_slot(slots_[i], now);
            // A source may open its descriptor on its first poll (the MAD source's umad port).
            watch_event_fds(i, now);
        }
    }
    flush();
    route_refreshes();
    engine_.advance(clock_.now());
    // A large round (a subnet pass: its MADs, its reading, the snapshot it replaces) leaves that
    // much heap free: given back, so the daemon's size is its state, not its last pass.
    const bool large = pending_.emitted() - emitted_at_trim_ >= kTrimAfterObservations;
    publish(large);
}

Duration CollectorRuntime::time_to_next_poll() const {
    auto due = schedule_.next_due();
    if (!due) return options_.max_wait;
    auto wait = *due - clock_.now();
    if (wait < Duration::zero()) return Duration::zero();
    return std::min(wait, options_.max_wait);
}

std::optional<TimePoint> CollectorRuntime::next_due() const {
    return schedule_.next_due();
}

void CollectorRuntime::poll_all_at(TimePoint when) {
    for (size_t i = 0; i < schedule_.size(); ++i) schedule_.run_at(i, when);
}

std::optional<Duration> CollectorRuntime::playback_length() const {
    std::optional<Duration> longest;
    for (const auto& slot : slots_) {
        if (!slot.available) continue;
        auto length = slot.source->playback_length();
        if (!length) return std::nullopt;
        longest = std::max(longest.value_or(Duration::zero()), *length);
    }
    return longest;
}

std::vector<std::string> CollectorRuntime::up_sources() const {
    std::vector<std::string> out;
    for (const auto& slot : slots_) {
        if (slot.available && !slot.failing) out.emplace_back(slot.source->name());
    }
    return out;
}

void CollectorRuntime::wait_and_step(const std::atomic<bool>& stop,
                                     std::optional<TimePoint> deadline) {
    Duration wait = time_to_next_poll();
    if (wait > Duration::zero()) wait += kWakeMargin;
    if (deadline) wait = std::max(Duration::zero(), std::min(wait, *deadline - clock_.now()));
    auto ready = loop_.wait(wait);
    if (stop) return;
    step(ready);
}

void CollectorRuntime::run_until(const std::atomic<bool>& stop, std::optional<TimePoint> deadline) {
    prepare();
    while (!stop && (!deadline || clock_.now() < *deadline)) wait_and_step(stop, deadline);
}

void CollectorRuntime::start() {
    if (thread_.joinable()) return;
    stopping_ = false;
    prepare();
    thread_ = std::thread([this] {
        while (!stopping_) wait_and_step(stopping_, std::nullopt);
    });
}

void CollectorRuntime::stop() {
    if (!thread_.joinable()) return;
    stopping_ = true;
    loop_.wake();
    thread_.join();
}

}  // namespace rdmadiag::runtime
