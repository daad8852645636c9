#include "collector/sources/source_options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::sources {

namespace {

std::string quoted(std::string_view text) {
    return "'" + std::string(text) + "'";
}

std::string choice_list(std::span<const std::string_view> choices, std::string_view last_word) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (i > 0) out += i + 1 == choices.size() ? " " + std::string(last_word) + " " : ", ";
        out += choices[i];
    }
    return out;
}

Error option_error(const OptionSpec& spec, const std::string& must, std::string_view text) {
    return make_error(std::string(spec.key) + " must be " + must + ", not " + quoted(text), EINVAL);
}

std::string bounds(const OptionSpec& spec) {
    return std::to_string(spec.min) + ".." + std::to_string(spec.max);
}

// A bound as one would write it: 1s, 5ms, 10m.
std::string bound_text(Duration d) {
    using namespace std::chrono;
    const auto ns = d.count();
    using Unit = std::pair<Duration, const char*>;
    for (const auto& [unit, name] : {Unit{hours(1), "h"}, Unit{minutes(1), "m"},
                                     Unit{seconds(1), "s"}, Unit{milliseconds(1), "ms"}}) {
        const auto per = unit.count();
        if (ns % per == 0) return std::to_string(ns / per) + name;
    }
    return format_duration(d);
}

std::optional<uint64_t> read_integer(std::string_view text, int base) {
    if (base == 8) return common::parse_number<uint64_t>(text, 8);
    const int b = common::take_hex_prefix(text) ? 16 : 10;
    return common::parse_number<uint64_t>(text, b);
}

// A GUID as partitions.conf writes one: a digit first, then what strtoull reads with base 0.
std::optional<uint64_t> read_guid(std::string_view text) {
    if (text.empty() || text.size() > 64 || !std::isdigit(static_cast<unsigned char>(text[0])))
        return std::nullopt;
    return common::parse_c_number(text);
}

}  // namespace

void OptionValues::set(std::string key, OptionValue value, bool given) {
    if (given) given_.insert(key);
    values_.insert_or_assign(std::move(key), std::move(value));
}

Result<OptionValue> parse_option(const OptionSpec& spec, std::string_view text) {
    switch (spec.type) {
        case OptionType::string:
            return OptionValue(std::string(text));
        case OptionType::path:
            if (text.empty()) return option_error(spec, "a path", text);
            return OptionValue(std::string(text));
        case OptionType::choice:
            for (auto c : spec.choices) {
                if (c == text) return OptionValue(std::string(text));
            }
            return option_error(spec, choice_list(spec.choices, "or"), text);
        case OptionType::boolean:
            if (text == "on" || text == "true" || text == "yes") return OptionValue(true);
            if (text == "off" || text == "false" || text == "no") return OptionValue(false);
            return option_error(spec, "on or off", text);
        case OptionType::duration: {
            // Every duration here is a period or a wait: zero would be a busy loop.
            const Duration least =
                std::max<Duration>(spec.min_duration, std::chrono::nanoseconds(1));
            auto d = parse_duration(text);
            if (d && *d >= least) return OptionValue(*d);
            if (least == std::chrono::nanoseconds(1))
                return option_error(spec, "a positive duration", text);
            return option_error(spec, "a duration of at least " + bound_text(spec.min_duration),
                                text);
        }
        case OptionType::integer: {
            auto n = read_integer(text, spec.base);
            if (n && *n >= spec.min && *n <= spec.max) return OptionValue(*n);
            if (spec.base == 8) {
                char most[24];
                std::snprintf(most, sizeof most, "0%llo",
                              static_cast<unsigned long long>(spec.max));
                return option_error(spec, std::string("an octal number up to ") + most, text);
            }
            if (spec.min == 0 && spec.max == std::numeric_limits<uint64_t>::max())
                return option_error(spec, "a number (0x... or decimal)", text);
            return option_error(spec, "a number " + bounds(spec), text);
        }
        case OptionType::guid: {
            auto g = read_guid(text);
            if (g && *g >= spec.min && *g <= spec.max) return OptionValue(*g);
            return option_error(spec, spec.min > 0 ? "a GUID other than 0" : "a GUID", text);
        }
        case OptionType::time: {
            if (auto t = parse_time(text)) return OptionValue(*t);
            return option_error(spec, "an RFC 3339 UTC time such as 2026-01-01T08:00:00Z", text);
        }
    }
    return make_error("unknown option type", EINVAL);
}

std::string option_value_name(const OptionSpec& spec) {
    if (!spec.value_name.empty()) return std::string(spec.value_name);
    switch (spec.type) {
        case OptionType::string:
            return "TEXT";
        case OptionType::path:
            return "PATH";
        case OptionType::choice: {
            std::string out;
            for (auto c : spec.choices) out += (out.empty() ? "" : "|") + std::string(c);
            return out;
        }
        case OptionType::boolean:
            return "on|off";
        case OptionType::duration:
            return "DURATION";
        case OptionType::integer:
            return spec.base == 8 ? "OCTAL" : "N";
        case OptionType::guid:
            return "GUID";
        case OptionType::time:
            return "TIME";
    }
    return "VALUE";
}

std::string option_help(const OptionSpec& spec) {
    std::string out(spec.help);
    if (!spec.default_text.empty()) out += " (default " + std::string(spec.default_text) + ")";
    return out;
}

}  // namespace rdmadiag::sources
