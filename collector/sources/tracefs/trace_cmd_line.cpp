#include "collector/sources/tracefs/trace_cmd_line.hpp"
#include "collector/common/trim.hpp"

namespace rdmadiag::tracefs {

namespace {

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

bool starts_with_then_digits(std::string_view s, std::string_view head) {
    return s.starts_with(head) && all_digits(common::trim_blanks(s.substr(head.size())));
}

}  // namespace

bool is_trace_cmd_header(std::string_view line) {
    std::string_view t = common::trim_blanks(line);
    if (t.empty()) return true;
    if (starts_with_then_digits(t, "version =") || starts_with_then_digits(t, "cpus=")) return true;
    // "CPU 3 is empty"
    if (t.starts_with("CPU ") && t.ends_with(" is empty")) {
        return all_digits(t.substr(4, t.size() - 4 - std::string_view(" is empty").size()));
    }
    return false;
}

Result<std::optional<FtraceLine>> split_trace_cmd_line(std::string_view line) {
    if (is_trace_cmd_header(line)) return std::optional<FtraceLine>{};
    if (common::trim_blanks(line).front() == '#') {
        return make_error("a '#' comment line: trace-cmd report prints none (an ftrace file?)");
    }
    auto split = RDMADIAG_TRY(split_ftrace_line(line));
    if (!split) return split;
    if (!split->cpu) return make_error("no [cpu] column before the timestamp");
    if (!split->pid) return make_error("no <comm>-<pid> before the cpu column");
    return split;
}

}  // namespace rdmadiag::tracefs
