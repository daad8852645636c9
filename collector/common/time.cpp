#include "collector/common/time.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::common {

std::string format_time(TimePoint t) {
    using namespace std::chrono;
    const auto secs = floor<seconds>(t);
    const auto ms = duration_cast<milliseconds>(t - secs).count();
    const std::time_t tt = secs.time_since_epoch().count();
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<int>(ms));
    return buf;
}

namespace {

bool read_int(std::string_view& s, size_t digits, int& out) {
    if (s.size() < digits) return false;
    int v = 0;
    for (size_t i = 0; i < digits; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    s.remove_prefix(digits);
    return true;
}

bool expect(std::string_view& s, char c) {
    if (s.empty() || s.front() != c) return false;
    s.remove_prefix(1);
    return true;
}

}  // namespace

Result<TimePoint> parse_time(std::string_view text) {
    using namespace std::chrono;
    std::string_view s = text;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
    if (!read_int(s, 4, y) || !expect(s, '-') || !read_int(s, 2, mo) || !expect(s, '-') ||
        !read_int(s, 2, d) || !(expect(s, 'T') || expect(s, ' ')) || !read_int(s, 2, h) ||
        !expect(s, ':') || !read_int(s, 2, mi) || !expect(s, ':') || !read_int(s, 2, se)) {
        return make_error("not an RFC 3339 time: '" + std::string(text) + "'");
    }
    int64_t frac_ns = 0;
    if (!s.empty() && s.front() == '.') {
        s.remove_prefix(1);
        int64_t scale = 100'000'000;
        size_t n = 0;
        while (!s.empty() && s.front() >= '0' && s.front() <= '9') {
            if (scale > 0) frac_ns += (s.front() - '0') * scale;
            scale /= 10;
            s.remove_prefix(1);
            ++n;
        }
        if (n == 0) return make_error("not an RFC 3339 time: '" + std::string(text) + "'");
    }
    if (!(s == "Z" || s == "z" || s == "+00:00")) {
        return make_error("time must be UTC (Z): '" + std::string(text) + "'");
    }
    const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)},
                             day{static_cast<unsigned>(d)}};
    if (!ymd.ok() || h > 23 || mi > 59 || se > 60) {
        return make_error("time out of range: '" + std::string(text) + "'");
    }
    // A TimePoint counts nanoseconds in 64 bits (years 1678..2261); the text can name any year
    // from 0000 to 9999, so the range is checked in seconds before converting.
    const int64_t secs =
        (sys_days{ymd} + hours{h} + minutes{mi} + seconds{se}).time_since_epoch().count();
    constexpr int64_t kMaxSeconds =
        std::chrono::duration_cast<seconds>(Duration::max()).count() - 1;
    if (secs > kMaxSeconds || secs < -kMaxSeconds) {
        return make_error("time out of range: '" + std::string(text) + "'");
    }
    return TimePoint{seconds{secs}} + nanoseconds{frac_ns};
}

std::string format_duration(Duration d) {
    using namespace std::chrono;
    const bool neg = d < Duration::zero();
    if (neg) d = -d;
    char buf[48];
    const auto ms = duration_cast<milliseconds>(d).count();
    if (ms < 1000) {
        std::snprintf(buf, sizeof buf, "%lldms", static_cast<long long>(ms));
    } else if (ms < 60'000) {
        std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(ms) / 1000.0);
    } else if (ms < 3'600'000) {
        const auto s = ms / 1000;
        std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(s / 60),
                      static_cast<long long>(s % 60));
    } else {
        const auto m = ms / 60'000;
        std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(m / 60),
                      static_cast<long long>(m % 60));
    }
    return neg ? "-" + std::string(buf) : std::string(buf);
}

Result<Duration> parse_duration(std::string_view text) {
    std::string_view unit = text;
    const auto number = take_number<double>(unit);
    if (!number || !std::isfinite(*number) || *number < 0) {
        return make_error("not a duration: '" + std::string(text) + "'");
    }
    const double value = *number;
    double ns_per_unit = 0;
    if (unit.empty() || unit == "s") {
        ns_per_unit = 1e9;
    } else if (unit == "ms") {
        ns_per_unit = 1e6;
    } else if (unit == "us") {
        ns_per_unit = 1e3;
    } else if (unit == "ns") {
        ns_per_unit = 1;
    } else if (unit == "m") {
        ns_per_unit = 60e9;
    } else if (unit == "h") {
        ns_per_unit = 3600e9;
    } else {
        return make_error("unknown duration unit in '" + std::string(text) + "'");
    }
    const double ns = value * ns_per_unit;
    if (ns > 9.2e18) return make_error("duration too long: '" + std::string(text) + "'");
    return Duration{static_cast<int64_t>(std::llround(ns))};
}

double to_seconds(Duration d) {
    return std::chrono::duration<double>(d).count();
}

}  // namespace rdmadiag::common
