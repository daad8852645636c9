#pragma once
// Structured, leveled logs: one line per record, "logfmt" (ts=... level=info msg="..." key=value)
// or JSON, like the Prometheus exporters write them, so the same tools parse both.

#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "collector/common/time.hpp"

namespace rdmadiag::common {

enum class LogLevel : uint8_t { debug, info, warn, error };
std::string_view to_string(LogLevel level);
std::optional<LogLevel> parse_log_level(std::string_view text);

enum class LogFormat : uint8_t { logfmt, json };
std::optional<LogFormat> parse_log_format(std::string_view text);

using LogField = std::pair<std::string_view, std::string>;

// Formats one record. Pure, so the formats are tested without a logger.
std::string format_log_record(LogFormat format, TimePoint time, LogLevel level,
                              std::string_view message, std::initializer_list<LogField> fields);

class Logger {
public:
    using Writer = std::function<void(std::string_view line)>;

    // Writes to stderr.
    Logger(LogLevel level = LogLevel::info, LogFormat format = LogFormat::logfmt);
    Logger(LogLevel level, LogFormat format, Writer writer, const Clock* clock = nullptr);

    void set_level(LogLevel level);
    LogLevel level() const;
    bool enabled(LogLevel level) const;

    void log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});
    void debug(std::string_view m, std::initializer_list<LogField> f = {}) {
        log(LogLevel::debug, m, f);
    }
    void info(std::string_view m, std::initializer_list<LogField> f = {}) {
        log(LogLevel::info, m, f);
    }
    void warn(std::string_view m, std::initializer_list<LogField> f = {}) {
        log(LogLevel::warn, m, f);
    }
    void error(std::string_view m, std::initializer_list<LogField> f = {}) {
        log(LogLevel::error, m, f);
    }

private:
    mutable std::mutex mutex_;
    LogLevel level_;
    LogFormat format_;
    Writer writer_;
    const Clock* clock_;
    SystemClock system_clock_;
};

}  // namespace rdmadiag::common
