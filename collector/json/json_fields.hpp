#pragma once
// Small helpers shared by the JSON codecs: optional fields are left out when unset, times are
// RFC 3339 strings, enums are their stable text names. Decoders throw nlohmann::json exceptions or
// JsonDecodeError on bad input; the public entry points catch them and return Result.

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "collector/model/time.hpp"

namespace rdmadiag::json_detail {

using nlohmann::json;

struct JsonDecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class T>
void put_opt(json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}

template <class T>
void get_opt(const json& j, const char* key, std::optional<T>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        out.reset();
    } else {
        out = it->get<T>();
    }
}

template <class T>
void get_to(const json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it != j.end() && !it->is_null()) it->get_to(out);
}

inline json time_json(TimePoint t) {
    return format_time(t);
}

inline TimePoint time_from(const json& j) {
    auto r = parse_time(j.get<std::string>());
    if (!r) throw JsonDecodeError(r.error().message);
    return *r;
}

inline void get_time(const json& j, const char* key, TimePoint& out) {
    auto it = j.find(key);
    if (it != j.end() && !it->is_null()) out = time_from(*it);
}

inline void get_opt_time(const json& j, const char* key, std::optional<TimePoint>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        out.reset();
    } else {
        out = time_from(*it);
    }
}

// Enums travel as their names; `parse` is the model's parse_* function.
template <class E, class Parse>
E enum_from(const json& j, Parse parse, const char* what) {
    auto v = parse(j.get<std::string>());
    if (!v)
        throw JsonDecodeError(std::string("unknown ") + what + " '" + j.get<std::string>() + "'");
    return *v;
}

// GUIDs travel as "0x0002c90300001234" strings: JSON numbers lose 64-bit precision in many
// consumers (JavaScript, Grafana).
std::string guid_text(uint64_t guid);
uint64_t guid_from(const json& j);

}  // namespace rdmadiag::json_detail
