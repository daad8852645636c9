#pragma once
// Whole numbers in text, read one way everywhere: digits of the base only (no sign on an unsigned
// type, no space, no '+', no "0x"), and a value out of the type's range is an error rather than a
// wrap. Callers say what was wrong in their own words, so these only say whether it was.

#include <charconv>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

namespace rdmadiag::common {

// All of `text` as a number in `base`; nullopt for empty text, any other character, or a value T
// cannot hold.
template <std::integral T>
std::optional<T> parse_number(std::string_view text, int base = 10) {
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

// The number `text` starts with, which `text` then starts past; nullopt, with `text` as it was,
// when it starts with no digit or the number is too big for T. A floating-point T is read in
// decimal or scientific notation ("1.5", "2e3") and takes no base.
template <class T>
requires std::integral<T> || std::floating_point<T> std::optional<T> take_number(
    std::string_view& text, int base = 10) {
    T value{};
    const char* end = text.data() + text.size();
    std::from_chars_result r;
    if constexpr (std::floating_point<T>) {
        r = std::from_chars(text.data(), end, value);
    } else {
        r = std::from_chars(text.data(), end, value, base);
    }
    if (r.ec != std::errc{}) return std::nullopt;
    text.remove_prefix(static_cast<size_t>(r.ptr - text.data()));
    return value;
}

// Takes a leading "0x" or "0X" off `text`; whether there was one.
bool take_hex_prefix(std::string_view& text);

// All of `text` as C writes a number, the way strtoull(text, 0) reads one: 0x hex, a leading 0
// octal, decimal otherwise. opensm's partitions.conf writes its GUIDs and P_Keys so.
std::optional<uint64_t> parse_c_number(std::string_view text);

}  // namespace rdmadiag::common
