#pragma once
// MR events from a trace saved as text on another machine (the `trace` file's contents or
// `trace-cmd report` output, told apart by the text): read once, in full, on the first poll. It
// stands in for the tracefs source, under its name, when tracefs.trace_file names a file. A line
// that does not parse costs only itself and is reported as "<file> line <n>".

#include <string>

#include "collector/model/mr_kernel.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/tracefs/saved_trace.hpp"

namespace rdmadiag::tracefs {

struct SavedTraceStats {
    uint64_t lines = 0;
    uint64_t mr_events = 0;
    uint64_t malformed = 0;
};

class SavedTraceSource final : public sources::Source {
public:
    // `clock_offset` is the wall time the trace clock counts from; `device` names the device the
    // events are about (trace events do not), empty when not known.
    // `given` is the tracefs.flushed_mrs option, `release` the tracefs.kernel option (or empty):
    // with the trace's own events they say what its kernel did with flushed xprtrdma MRs: sent
    // before the first event when the options tell, after the last one when only the trace does.
    SavedTraceSource(std::string path, std::string device, Duration clock_offset,
                     std::optional<MrKernelBehaviour> given = std::nullopt,
                     std::string release = {});

    std::string_view name() const override { return "tracefs"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return std::chrono::seconds(1); }
    void poll(TimePoint now, sources::ObservationSink& sink) override;

    const SavedTraceStats& stats() const { return stats_; }
    // Known once the file was read.
    std::optional<SavedTraceFormat> format() const { return format_; }

private:
    void read(TimePoint now, sources::ObservationSink& sink);

    std::string path_;
    std::string device_;
    Duration clock_offset_{};
    sources::Availability availability_;
    bool read_ = false;
    std::optional<SavedTraceFormat> format_;
    SavedTraceStats stats_;
    std::optional<MrKernelBehaviour> given_;
    std::string release_;
};

}  // namespace rdmadiag::tracefs
