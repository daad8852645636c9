#include "collector/sources/tracefs/ftrace_line.hpp"
#include "collector/common/trim.hpp"

#include <cstdint>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::tracefs {

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

template <class T>
std::optional<T> to_uint(std::string_view s) {
    return common::parse_number<T>(s);
}

// "<digits>.<digits>" ending right before `colon`; returns its start, or npos.
size_t timestamp_start(std::string_view line, size_t colon) {
    size_t i = colon;
    size_t frac = 0;
    while (i > 0 && is_digit(line[i - 1])) --i, ++frac;
    if (frac == 0 || i == 0 || line[i - 1] != '.') return std::string_view::npos;
    --i;
    size_t whole = 0;
    while (i > 0 && is_digit(line[i - 1])) --i, ++whole;
    if (whole == 0) return std::string_view::npos;
    if (i > 0 && line[i - 1] != ' ' && line[i - 1] != '\t') return std::string_view::npos;
    return i;
}

std::optional<Duration> parse_timestamp(std::string_view s) {
    size_t dot = s.find('.');
    auto secs = to_uint<uint64_t>(s.substr(0, dot));
    std::string_view frac = s.substr(dot + 1);
    // Nanoseconds are counted in 64 signed bits: more seconds than that holds is garbage, not a
    // time to wrap into a negative one.
    constexpr uint64_t kMaxSeconds = INT64_MAX / 1000000000ULL - 1;
    if (!secs || *secs > kMaxSeconds || frac.empty() || frac.size() > 9) return std::nullopt;
    auto f = to_uint<uint64_t>(frac);
    if (!f) return std::nullopt;
    uint64_t ns = *f;
    for (size_t k = frac.size(); k < 9; ++k) ns *= 10;
    return Duration{static_cast<int64_t>(*secs * 1000000000ULL + ns)};
}

// Event names are C identifiers.
bool is_event_char(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

struct Anchor {
    size_t ts_begin;
    size_t ts_colon;
    size_t event_end;
};

std::optional<Anchor> find_anchor(std::string_view line, size_t from) {
    for (size_t colon = line.find(": ", from); colon != std::string_view::npos;
         colon = line.find(": ", colon + 1)) {
        size_t ts = timestamp_start(line, colon);
        if (ts == std::string_view::npos) continue;
        size_t e = colon + 2;
        size_t end = e;
        while (end < line.size() && is_event_char(line[end])) ++end;
        if (end == e || end >= line.size() || line[end] != ':') continue;
        return Anchor{ts, colon, end};
    }
    return std::nullopt;
}

}  // namespace

Result<std::optional<FtraceLine>> split_ftrace_line(std::string_view line) {
    std::string_view t = common::trim_blanks(line);
    if (t.empty() || t.front() == '#') return std::optional<FtraceLine>{};
    auto a = find_anchor(line, 0);
    if (!a) return make_error("not an ftrace event line (no timestamp and event name)");
    FtraceLine out;
    auto ts = parse_timestamp(line.substr(a->ts_begin, a->ts_colon - a->ts_begin));
    if (!ts) return make_error("bad timestamp");
    out.timestamp = *ts;
    out.event = line.substr(a->ts_colon + 2, a->event_end - a->ts_colon - 2);
    std::string_view body = line.substr(a->event_end + 1);
    out.body = common::trim_blanks(body);

    // Prefix: "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] "
    std::string_view prefix = line.substr(0, a->ts_begin);
    size_t lb = prefix.rfind('[');
    if (lb != std::string_view::npos) {
        size_t rb = prefix.find(']', lb);
        if (rb != std::string_view::npos)
            out.cpu = to_uint<uint32_t>(prefix.substr(lb + 1, rb - lb - 1));
        if (out.cpu) prefix = prefix.substr(0, lb);
    }
    prefix = common::trim_blanks(prefix);
    if (!prefix.empty() && prefix.back() == ')') {  // "(  1234)" tgid column
        size_t lp = prefix.rfind('(');
        if (lp != std::string_view::npos) prefix = common::trim_blanks(prefix.substr(0, lp));
    }
    size_t dash = prefix.rfind('-');
    if (dash != std::string_view::npos) {
        out.pid = to_uint<uint32_t>(prefix.substr(dash + 1));
        if (out.pid) prefix = prefix.substr(0, dash);
    }
    out.comm = common::trim_blanks(prefix);
    return std::optional<FtraceLine>{out};
}

size_t find_spliced_record(std::string_view line) {
    auto first = find_anchor(line, 0);
    if (!first) return std::string_view::npos;
    auto second = find_anchor(line, first->event_end + 1);
    if (!second) return std::string_view::npos;
    // The second record's prefix begins after the whitespace run before its "[cpu]" column,
    // which precedes the timestamp; back up over "comm-pid [cpu] flags ".
    size_t cpu = line.rfind('[', second->ts_begin);
    if (cpu == std::string_view::npos || cpu <= first->event_end) return second->ts_begin;
    size_t i = cpu;
    while (i > first->event_end + 1 && line[i - 1] == ' ') --i;
    while (i > first->event_end + 1 && line[i - 1] != ' ') --i;
    return i;
}

}  // namespace rdmadiag::tracefs
