#pragma once
// The ftrace text line as /sys/kernel/tracing/trace and trace_pipe print it:
//
//   <comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <seconds>.<micros>: <event>: <body>
//
// The flags column and the tgid column come and go with trace options, and a comm may hold
// spaces and dashes, so the line is anchored on the timestamp followed by the event name.

#include <cstdint>
#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"

namespace rdmadiag::tracefs {

struct FtraceLine {
    std::string_view comm;
    std::optional<uint32_t> pid;
    std::optional<uint32_t> cpu;
    Duration timestamp{};  // on the trace clock (local: close to CLOCK_MONOTONIC)
    std::string_view event;
    std::string_view body;
};

// Header and blank lines are nullopt; a line without the timestamp/event anchor is an error.
Result<std::optional<FtraceLine>> split_ftrace_line(std::string_view line);

// Where a second ftrace record starts inside `line` (two records spliced together by a torn
// read), or npos.
size_t find_spliced_record(std::string_view line);

}  // namespace rdmadiag::tracefs
