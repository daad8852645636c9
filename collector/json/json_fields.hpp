#pragma once
// Small helpers shared by the JSON codecs: optional fields are left out when unset, times are
// RFC 3339 strings, enums are their stable text names. Decoders throw nlohmann::json exceptions or
// JsonDecodeError on bad input; the field helpers below name the field an error happened in, and
// the public entry points catch them and return Result.

#include <optional>
#include <string>
#include <string_view>

#include "collector/common/time.hpp"
#include "collector/json/checked_json.hpp"

namespace rdmadiag::codec {

using json = codec::Json;

// nlohmann's messages start with "[json.exception.type_error.302] "; a person needs the rest.
inline std::string plain_message(const nlohmann::json::exception& e) {
    std::string_view m = e.what();
    if (!m.empty() && m.front() == '[') {
        const size_t end = m.find("] ");
        if (end != std::string_view::npos) m.remove_prefix(end + 2);
    }
    return std::string(m);
}

// Runs `decode` for field `key`, so that any error it raises names the field.
template <class F>
void in_field(const char* key, F&& decode) {
    try {
        decode();
    } catch (const JsonDecodeError& e) {
        throw e.within(key);
    } catch (const nlohmann::json::exception& e) {
        throw JsonDecodeError(plain_message(e), key);
    }
}

template <class T>
void put_opt(json& j, const char* key, const std::optional<T>& v) {
    if (v) j[key] = *v;
}

// A field that may be absent or null: `out` is reset then.
template <class T>
void get_opt(const json& j, const char* key, std::optional<T>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        out.reset();
    } else {
        in_field(key, [&] { out = it->template get<T>(); });
    }
}

// A field that may be absent or null: `out` keeps its value then.
template <class T>
void get_to(const json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it != j.end() && !it->is_null()) in_field(key, [&] { it->get_to(out); });
}

// A field that must be there.
template <class T>
void get_required(const json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it == j.end()) throw JsonDecodeError("missing", key);
    in_field(key, [&] { it->get_to(out); });
}

// A moment that never happened (the clock's zero: a counter that never rose, a source never
// seen) is null, not 1970-01-01T00:00:00.000Z; get_time reads null back as that zero.
inline json time_json(TimePoint t) {
    if (t == TimePoint{}) return nullptr;
    return format_time(t);
}

inline TimePoint time_from(const json& j) {
    auto r = parse_time(j.get<std::string>());
    if (!r) throw JsonDecodeError(r.error().message);
    return *r;
}

inline void get_time(const json& j, const char* key, TimePoint& out) {
    auto it = j.find(key);
    if (it != j.end() && !it->is_null()) in_field(key, [&] { out = time_from(*it); });
}

inline void get_opt_time(const json& j, const char* key, std::optional<TimePoint>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        out.reset();
    } else {
        in_field(key, [&] { out = time_from(*it); });
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

}  // namespace rdmadiag::codec
