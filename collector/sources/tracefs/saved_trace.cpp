#include "collector/sources/tracefs/saved_trace.hpp"

#include "collector/sources/tracefs/trace_cmd_line.hpp"

namespace rdmadiag::tracefs {

namespace {

// Enough to pass any header either printer writes and reach the first event.
constexpr size_t kLinesToDecide = 64;

std::string_view trim_left(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return s;
}

// Whether something other than blanks stands between the "[cpu]" column and the timestamp.
bool has_flags_column(std::string_view line, const FtraceLine& split) {
    size_t ts = line.find(": " + std::string(split.event) + ":");
    if (ts == std::string_view::npos) return false;
    size_t rb = line.rfind(']', ts);
    if (rb == std::string_view::npos) return false;
    std::string_view between = trim_left(line.substr(rb + 1, ts - rb - 1));
    // What is left is the timestamp, or the flags, a blank and the timestamp.
    return between.find_first_of(" \t") != std::string_view::npos;
}

}  // namespace

std::string_view saved_trace_format_name(SavedTraceFormat format) {
    return format == SavedTraceFormat::trace_cmd ? "trace-cmd report" : "ftrace";
}

SavedTraceFormat detect_saved_trace_format(std::string_view text) {
    size_t seen = 0;
    while (!text.empty() && seen < kLinesToDecide) {
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        std::string_view t = trim_left(line);
        if (t.empty() || t == "\r") continue;
        ++seen;
        if (t.starts_with("# tracer:")) return SavedTraceFormat::ftrace;
        if (is_trace_cmd_header(line)) return SavedTraceFormat::trace_cmd;
        if (t.front() == '#') continue;
        auto split = split_ftrace_line(line);
        if (!split || !*split) continue;
        if (!(*split)->cpu) return SavedTraceFormat::ftrace;
        return has_flags_column(line, **split) ? SavedTraceFormat::ftrace
                                               : SavedTraceFormat::trace_cmd;
    }
    return SavedTraceFormat::ftrace;
}

Result<std::optional<TraceMrEvent>> parse_saved_trace_line(SavedTraceFormat format,
                                                           std::string_view line,
                                                           std::string_view device) {
    auto split = format == SavedTraceFormat::trace_cmd ? split_trace_cmd_line(line)
                                                       : split_ftrace_line(line);
    if (!split) return split.error();
    if (!*split) return std::optional<TraceMrEvent>{};
    return parse_mr_trace_event(**split, device);
}

}  // namespace rdmadiag::tracefs
