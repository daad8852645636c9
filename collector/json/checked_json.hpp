#pragma once
// The JSON value type every rdmadiag codec uses. It is nlohmann::basic_json with a serializer
// that never trusts a number: an integer field takes only a JSON integer that fits its width and
// sign (nlohmann's default casts 6.55e+71, -1 or true into a uint64_t without a word), a
// floating-point field takes only a number, and an enum is never read from or written as a
// number (enums travel as their stable names, json_fields.hpp enum_from). Because the rule lives
// in the type, containers of integers (vectors, maps) are checked element by element too.

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace rdmadiag::codec {

// A decoding error. `path` names the field it happened in ("ports.counters.value"), filled in
// as the error travels out through the field helpers of json_fields.hpp.
class JsonDecodeError : public std::runtime_error {
public:
    explicit JsonDecodeError(const std::string& reason, std::string path = {})
        : std::runtime_error(path.empty() ? reason : "field '" + path + "': " + reason),
          reason_(reason),
          path_(std::move(path)) {}

    const std::string& reason() const { return reason_; }
    const std::string& path() const { return path_; }

    // The same error seen from the object that holds field `key`.
    JsonDecodeError within(const std::string& key) const {
        return JsonDecodeError(reason_, path_.empty() ? key : key + "." + path_);
    }

private:
    std::string reason_;
    std::string path_;
};

template <class T>
std::string integer_range_text() {
    return std::to_string(std::numeric_limits<T>::min()) + " to " +
           std::to_string(std::numeric_limits<T>::max());
}

template <class BasicJson>
std::string number_kind_text(const BasicJson& j) {
    if (j.is_number()) return j.dump();
    return std::string("a JSON ") + j.type_name();
}

template <class T, class BasicJson>
T checked_integer(const BasicJson& j) {
    using Unsigned = typename BasicJson::number_unsigned_t;
    using Signed = typename BasicJson::number_integer_t;
    if (j.is_number_unsigned()) {
        const Unsigned u = *j.template get_ptr<const Unsigned*>();
        if (std::in_range<T>(u)) return static_cast<T>(u);
    } else if (j.is_number_integer()) {
        const Signed s = *j.template get_ptr<const Signed*>();
        if (std::in_range<T>(s)) return static_cast<T>(s);
    } else if (!j.is_number_float()) {
        throw JsonDecodeError("expected an integer, got " + number_kind_text(j));
    }
    throw JsonDecodeError("expected an integer from " + integer_range_text<T>() + ", got " +
                          number_kind_text(j));
}

template <class T, class BasicJson>
T checked_float(const BasicJson& j) {
    if (j.is_number_float())
        return static_cast<T>(*j.template get_ptr<const typename BasicJson::number_float_t*>());
    if (j.is_number_unsigned())
        return static_cast<T>(*j.template get_ptr<const typename BasicJson::number_unsigned_t*>());
    if (j.is_number_integer())
        return static_cast<T>(*j.template get_ptr<const typename BasicJson::number_integer_t*>());
    throw JsonDecodeError("expected a number, got " + number_kind_text(j));
}

template <class T>
inline constexpr bool is_checked_number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// Everything but numbers and enums is converted as nlohmann does (strings, booleans, containers,
// and our own types through their to_json/from_json found by ADL).
template <class T, class = void>
struct CheckedSerializer : nlohmann::adl_serializer<T> {};

template <class T>
struct CheckedSerializer<T, std::enable_if_t<is_checked_number<T>>> {
    template <class BasicJson>
    static void to_json(BasicJson& j, T v) {
        nlohmann::adl_serializer<T>::to_json(j, v);
    }
    template <class BasicJson>
    static void from_json(const BasicJson& j, T& v) {
        if constexpr (std::is_integral_v<T>) {
            v = checked_integer<T>(j);
        } else {
            v = checked_float<T>(j);
        }
    }
};

// No conversion at all: a use that would turn an enum into a number, or a number into an enum,
// does not compile.
template <class T>
struct CheckedSerializer<T, std::enable_if_t<std::is_enum_v<T>>> {};

using Json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                  std::uint64_t, double, std::allocator, CheckedSerializer>;
// Keys in insertion order, for documents a person reads (recording lines lead with time, source
// and kind).
using OrderedJson =
    nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool, std::int64_t,
                         std::uint64_t, double, std::allocator, CheckedSerializer>;

}  // namespace rdmadiag::codec
