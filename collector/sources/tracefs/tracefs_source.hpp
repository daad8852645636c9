#pragma once
// Kernel MR events from tracefs (rpcrdma and rdma_core systems). Following: enables the events
// it may, reads trace_pipe through the collector's loop, and disables on exit what it enabled.
// Once: reads the trace buffer (<root>/trace) one time, for a one-shot look. The root is a
// parameter (SourceSettings::tracefs_root); when empty, <sysfs root>/kernel/tracing then
// <sysfs root>/kernel/debug/tracing. With its first status it sends what the kernel does with
// flushed xprtrdma MRs (kernel_mr_behaviour.hpp). Option tracefs.boot_time=RFC3339 maps the trace
// clock of a trace captured elsewhere (default: this host's CLOCK_REALTIME - CLOCK_MONOTONIC). When
// tracefs or the events are missing it says which and why. When trace_pipe ends (end of file or a
// read error) the source goes down with the reason and reopens it on its next poll; the collector
// watches one epoll descriptor of the source's own, so the reopened pipe needs no re-registration.

#include <memory>
#include <string>
#include <vector>

#include "collector/model/mr_kernel.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"
#include "collector/sources/tracefs/line_assembler.hpp"

namespace rdmadiag::tracefs {

enum class TracefsMode { follow, once };

struct TracefsStats {
    uint64_t lines = 0;
    uint64_t mr_events = 0;
    uint64_t malformed = 0;
    uint64_t spliced = 0;  // torn lines that held two records
};

class TracefsSource final : public sources::Source {
public:
    // `clock_offset` maps the trace clock onto wall time (realtime - monotonic when empty).
    TracefsSource(const sources::SourceSettings& settings, TracefsMode mode,
                  std::optional<Duration> clock_offset = std::nullopt);
    ~TracefsSource() override;
    TracefsSource(const TracefsSource&) = delete;
    TracefsSource& operator=(const TracefsSource&) = delete;

    std::string_view name() const override { return "tracefs"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override;
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;

    // Parses a chunk of trace text as if read from the pipe (tests, replays of captured logs).
    void feed(std::string_view chunk, sources::ObservationSink& sink);

    const std::string& root() const { return root_; }
    const std::string& device() const { return device_; }
    const std::vector<std::string>& enabled_events() const { return enabled_; }
    const TracefsStats& stats() const { return stats_; }

private:
    void probe_events(bool enable);
    void handle_line(std::string_view line, sources::ObservationSink& sink, int depth);
    void emit_status(TimePoint now, sources::ObservationSink& sink);
    // Follow mode: opens trace_pipe into the source's epoll set; false (reason set) on failure.
    bool open_pipe(std::string& why);
    void close_pipe();
    void set_status(bool up, std::string reason, TimePoint now, sources::ObservationSink& sink);

    TracefsMode mode_;
    std::string root_;
    std::string device_;
    sources::Availability availability_;
    Duration clock_offset_{};
    int pipe_fd_ = -1;
    int epoll_fd_ = -1;  // follow mode: watches pipe_fd_, handed to the collector
    std::string note_;   // what the source says when up (events it could not enable, ...)
    bool read_once_ = false;
    bool status_sent_ = false;
    std::vector<std::string> enabled_;  // "rpcrdma/xprtrdma_wc_li", enabled by us
    LineAssembler lines_;
    TracefsStats stats_;
    uint64_t errors_this_read_ = 0;
    TimePoint now_{};  // of the current read, for the errors it reports
    // What the kernel does with flushed xprtrdma MRs, sent with the first status.
    std::optional<MrKernelBehaviour> kernel_;
};

// The option naming a saved trace file to read instead of a tracefs mount.
inline constexpr const char* kTraceFileOption = "tracefs.trace_file";

// The registry entry ("tracefs"; extra option tracefs.mode = once (default) or follow; with
// tracefs.trace_file = FILE it reads that saved trace instead, see saved_trace_source.hpp).
sources::SourceEntry tracefs_source_entry();

}  // namespace rdmadiag::tracefs
