#include "collector/sources/tracefs/saved_trace_source.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace rdmadiag::tracefs {

namespace {

// The first lines that went wrong are each named; a file of garbage is not a flood of errors.
constexpr uint64_t kMaxReportedLines = 20;
// No event line is this long: past it the line is garbage, whatever it holds.
constexpr size_t kMaxLine = 8192;
constexpr size_t kHeadBytes = 64 * 1024;

}  // namespace

SavedTraceSource::SavedTraceSource(std::string path, std::string device, Duration clock_offset)
    : path_(std::move(path)), device_(std::move(device)), clock_offset_(clock_offset) {
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
    while (std::getline(in, line)) {
        const uint64_t number = ++stats_.lines;
        if (line.size() > kMaxLine) {
            report(number, "longer than " + std::to_string(kMaxLine) + " bytes: not a trace line");
            continue;
        }
        auto parsed = parse_saved_trace_line(format, line, device_);
        if (!parsed) {
            report(number, parsed.error().message);
            continue;
        }
        if (!*parsed) continue;
        ++stats_.mr_events;
        sink.emit(Observation{TimePoint{} + clock_offset_ + (*parsed)->timestamp, "tracefs",
                              std::move((*parsed)->mr)});
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
