#pragma once
// A line of `trace-cmd report` output:
//
//   <comm>-<pid> [<cpu>] [<latency flags>] <seconds>.<fraction>: <event>: <padded body>
//
// Unlike the kernel's `trace` file it has no '#' comment header but lines of its own before the
// events ("version = 6", "cpus=4", "CPU 2 is empty"); it always prints the pid and the cpu,
// prints the flags column only with -l, pads the event name to a column, and prints nanoseconds
// with -t.

#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/sources/tracefs/ftrace_line.hpp"

namespace rdmadiag::tracefs {

// Whether the line is one trace-cmd prints before the events (or blank).
bool is_trace_cmd_header(std::string_view line);

// Header and blank lines are nullopt; an event line without its pid, cpu, timestamp or event
// name is an error.
Result<std::optional<FtraceLine>> split_trace_cmd_line(std::string_view line);

}  // namespace rdmadiag::tracefs
