#pragma once
// The options a source takes, declared beside its code as OptionSpecs and carried by its
// SourceEntry. One declaration serves every front end: the flags (--KEY VALUE and
// --source.opt KEY=VALUE), the daemon's config file, --help, the man page's list (checked by a
// test) and the GUI. Values are checked when a program starts or serve reloads, in the source's
// words, and sources read them typed (OptionValues), never as text.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"

namespace rdmadiag::sources {

struct SourceSettings;

enum class OptionType {
    string,    // any text
    path,      // a file or socket path, not empty
    choice,    // one of `choices`
    duration,  // 500ms, 10s, 5m; at least `min_duration`
    integer,   // whole number, 0x hex or decimal (octal with base 8), within [min, max]
    boolean,   // on|off, true|false, yes|no
    guid,      // 0x hex, leading-0 octal or decimal, as opensm writes one; within [min, max]
    time,      // RFC 3339 UTC
};

using OptionValue = std::variant<std::string, bool, uint64_t, Duration, TimePoint>;

// What a type cannot say (a group that must exist, one option that needs another), in the
// source's words; runs once every given option has its typed value.
using OptionCheck = Result<void> (*)(const OptionValue& value, const SourceSettings& settings);

struct OptionSpec {
    std::string_view key;  // "<source>.<name>", the spelling of --KEY and --source.opt KEY=...
    OptionType type = OptionType::string;
    std::string_view help;
    // How --help and the man page name the value (FILE, K/N); empty: after the type.
    std::string_view value_name = {};
    // Read as a given value would be when the option is not given; empty: none, or one that
    // depends on other settings (the help says which).
    std::string_view default_text = {};
    std::span<const std::string_view> choices = {};
    uint64_t min = 0;
    uint64_t max = std::numeric_limits<uint64_t>::max();
    int base = 0;  // integer: 0 reads 0x hex or decimal, 8 octal
    Duration min_duration = Duration::zero();
    OptionCheck check = nullptr;
    // Another flag spelling kept for scripts written before the option was declared.
    std::string_view alias = {};
    // Giving the option switches its source on unless --no-source.X says otherwise (a file to
    // read is the source's whole point).
    bool switches_source_on = false;
};

// The typed values of the options given and the defaults of those not given.
class OptionValues {
public:
    void set(std::string key, OptionValue value, bool given);
    // Whether the option was given (not only defaulted).
    bool given(std::string_view key) const { return given_.count(key) != 0; }
    bool empty() const { return values_.empty(); }

    template <class T>
    std::optional<T> get(std::string_view key) const {
        auto it = values_.find(key);
        if (it == values_.end()) return std::nullopt;
        if (const T* v = std::get_if<T>(&it->second)) return *v;
        return std::nullopt;
    }
    std::optional<std::string> text(std::string_view key) const { return get<std::string>(key); }

private:
    std::map<std::string, OptionValue, std::less<>> values_;
    std::set<std::string, std::less<>> given_;
};

// One option's text read as its type, or why not ("<key> must be ..., not '<text>'").
Result<OptionValue> parse_option(const OptionSpec& spec, std::string_view text);

// How --help and the man page show the value: its value_name, or DURATION, on|off,
// local|subnet, ... after its type.
std::string option_value_name(const OptionSpec& spec);
// The help text with its default, as --help prints it.
std::string option_help(const OptionSpec& spec);

}  // namespace rdmadiag::sources
