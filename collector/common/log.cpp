#include "collector/common/log.hpp"

#include <cstdio>

namespace rdmadiag::common {

namespace {

constexpr std::pair<LogLevel, std::string_view> kLevelNames[] = {{LogLevel::debug, "debug"},
                                                                 {LogLevel::info, "info"},
                                                                 {LogLevel::warn, "warn"},
                                                                 {LogLevel::error, "error"}};

bool needs_quotes(std::string_view v) {
    if (v.empty()) return true;
    for (char c : v) {
        if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
            return true;
    }
    return false;
}

void append_escaped(std::string& out, std::string_view v) {
    for (char c : v) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
}

void append_logfmt_pair(std::string& out, std::string_view key, std::string_view value) {
    if (!out.empty()) out += ' ';
    out += key;
    out += '=';
    if (needs_quotes(value)) {
        out += '"';
        append_escaped(out, value);
        out += '"';
    } else {
        out += value;
    }
}

void append_json_pair(std::string& out, std::string_view key, std::string_view value) {
    out += out.size() > 1 ? ",\"" : "\"";
    append_escaped(out, key);
    out += "\":\"";
    append_escaped(out, value);
    out += '"';
}

}  // namespace

std::string_view to_string(LogLevel level) {
    for (const auto& [l, n] : kLevelNames) {
        if (l == level) return n;
    }
    return "info";
}

std::optional<LogLevel> parse_log_level(std::string_view text) {
    for (const auto& [l, n] : kLevelNames) {
        if (n == text) return l;
    }
    if (text == "warning") return LogLevel::warn;
    return std::nullopt;
}

std::optional<LogFormat> parse_log_format(std::string_view text) {
    if (text == "logfmt") return LogFormat::logfmt;
    if (text == "json") return LogFormat::json;
    return std::nullopt;
}

std::string format_log_record(LogFormat format, TimePoint time, LogLevel level,
                              std::string_view message, std::initializer_list<LogField> fields) {
    std::string out;
    if (format == LogFormat::json) {
        out.push_back('{');
        append_json_pair(out, "ts", format_time(time));
        append_json_pair(out, "level", to_string(level));
        append_json_pair(out, "msg", message);
        for (const auto& [k, v] : fields) append_json_pair(out, k, v);
        out += '}';
    } else {
        append_logfmt_pair(out, "ts", format_time(time));
        append_logfmt_pair(out, "level", to_string(level));
        append_logfmt_pair(out, "msg", message);
        for (const auto& [k, v] : fields) append_logfmt_pair(out, k, v);
    }
    return out;
}

Logger::Logger(LogLevel level, LogFormat format)
    : Logger(level, format, [](std::string_view line) {
          std::fwrite(line.data(), 1, line.size(), stderr);
          std::fputc('\n', stderr);
      }) {}

Logger::Logger(LogLevel level, LogFormat format, Writer writer, const Clock* clock)
    : level_(level), format_(format), writer_(std::move(writer)), clock_(clock) {
    if (!clock_) clock_ = &system_clock_;
}

void Logger::set_level(LogLevel level) {
    std::lock_guard lock(mutex_);
    level_ = level;
}

LogLevel Logger::level() const {
    std::lock_guard lock(mutex_);
    return level_;
}

bool Logger::enabled(LogLevel level) const {
    return level >= this->level();
}

void Logger::log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
    std::lock_guard lock(mutex_);
    if (level < level_) return;
    writer_(format_log_record(format_, clock_->now(), level, message, fields));
}

}  // namespace rdmadiag::common
