#pragma once
// A trace saved as text, for reading on another machine: the kernel's `trace` file
// (`cat /sys/kernel/tracing/trace > trace.txt`) or `trace-cmd report` output. The two print the
// same events behind different prefixes and headers; which one a text is, the text says.

#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/sources/tracefs/mr_trace_parser.hpp"

namespace rdmadiag::tracefs {

enum class SavedTraceFormat { ftrace, trace_cmd };

std::string_view saved_trace_format_name(SavedTraceFormat format);

// Decided by the first lines: the `trace` file's "# tracer:" comments, or trace-cmd's
// "version = " / "cpus=" / "CPU n is empty" lines. Without either (a trace cut from the middle),
// by the first event line: the `trace` file prints a flags column between the cpu and the
// timestamp, trace-cmd report does not unless asked (-l). A text with neither is read as ftrace.
SavedTraceFormat detect_saved_trace_format(std::string_view text);

// One line in the given format: nullopt for headers and for events that are not MR events.
Result<std::optional<TraceMrEvent>> parse_saved_trace_line(SavedTraceFormat format,
                                                           std::string_view line,
                                                           std::string_view device = {});

}  // namespace rdmadiag::tracefs
