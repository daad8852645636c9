#include "collector/sources/tracefs/saved_trace_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "collector/sources/tracefs/kernel_mr_behaviour.hpp"

namespace rdmadiag::tracefs {

namespace {

// The first lines that went wrong are each named; a file of garbage is not a flood of errors.
constexpr uint64_t kMaxReportedLines = 20;
// No event line is this long: past it the line is garbage, whatever it holds.
constexpr size_t kMaxLine = 8192;
constexpr size_t kHeadBytes = 64 * 1024;

}  // namespace

SavedTraceSource::SavedTraceSource(std::string path, std::string device, Duration clock_offset,
                                   std::optional<MrKernelBehaviour> given, std::string release)
    : path_(std::move(path)),
      device_(std::move(device)),
      clock_offset_(clock_offset),
      given_(std::move(given)),
      release_(std::move(release)) {
    std::ifstream probe(path_, std::ios::binary);
    if (!probe) {
        availability_ = {false, "cannot open trace file " + path_ + ": " + std::strerror(errno)};
        return;
    }
    availability_ = {true, "saved trace " + path_};
}

void SavedTraceSource::poll(TimePoint now, sources::ObservationSink& sink) {
    if (read_ || !availability_.available) return;
    read_ = true;
    read(now, sink);
}

void SavedTraceSource::read(TimePoint now, sources::ObservationSink& sink) {
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
        availability_ = {false, "cannot open trace file " + path_ + ": " + std::strerror(errno)};
        sink.emit(Observation{now, "tracefs", SourceStatus{false, availability_.reason}});
        return;
    }
    std::string head(kHeadBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    const SavedTraceFormat format = detect_saved_trace_format(head);
    format_ = format;
    in.clear();
    in.seekg(0);

    auto report = [&](uint64_t number, std::string message) {
        ++stats_.malformed;
        if (stats_.malformed > kMaxReportedLines) return;
        sink.emit(Observation{
            now, "tracefs",
            SampleError{path_ + " line " + std::to_string(number), std::move(message), 0}});
    };
    std::string line;
    bool saw_recycle = false;
    std::optional<TimePoint> last_event;
    // Known from the options, the kernel's behaviour goes before the first event, so that flushed
    // MRs are judged by it as they come; learned from the trace, after the last one.
    std::optional<MrKernelBehaviour> sent;
    const bool known_up_front = given_ || !release_.empty();
    while (std::getline(in, line)) {
        const uint64_t number = ++stats_.lines;
        if (line.size() > kMaxLine) {
            report(number, "longer than " + std::to_string(kMaxLine) + " bytes: not a trace line");
            continue;
        }
        saw_recycle = saw_recycle || is_recycle_event_line(line);
        auto parsed = parse_saved_trace_line(format, line, device_);
        if (!parsed) {
            report(number, parsed.error().message);
            continue;
        }
        if (!*parsed) continue;
        ++stats_.mr_events;
        const TimePoint at = TimePoint{} + clock_offset_ + (*parsed)->timestamp;
        if (known_up_front && !sent) {
            sent = given_ ? *given_ : saved_trace_mr_behaviour(false, release_);
            sink.emit(Observation{at, "tracefs", *sent});
        }
        last_event = last_event ? std::max(*last_event, at) : at;
        sink.emit(Observation{at, "tracefs", std::move((*parsed)->mr)});
    }
    // At the trace's own last time: a replay's clock must not jump to this host's.
    const MrKernelBehaviour learned =
        given_ ? *given_ : saved_trace_mr_behaviour(saw_recycle, release_);
    if (!sent || !(*sent == learned)) {
        sink.emit(Observation{last_event.value_or(now), "tracefs", learned});
    }
    if (in.bad()) {
        sink.emit(Observation{now, "tracefs", SampleError{path_, std::strerror(errno), errno}});
    }
    if (stats_.malformed > kMaxReportedLines) {
        sink.emit(Observation{now, "tracefs",
                              SampleError{path_,
                                          std::to_string(stats_.malformed - kMaxReportedLines) +
                                              " more lines skipped, not named",
                                          0}});
    }
    availability_.reason =
        "saved trace " + path_ + " (" + std::string(saved_trace_format_name(format)) +
        "): " + std::to_string(stats_.lines) + " lines, " + std::to_string(stats_.mr_events) +
        " MR events, " + std::to_string(stats_.malformed) + " skipped";
    sink.emit(Observation{now, "tracefs", SourceStatus{true, availability_.reason}});
}

}  // namespace rdmadiag::tracefs
