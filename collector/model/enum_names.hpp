#pragma once
// A fixed table of an enum's text names, so every enum converts both ways through one routine.

#include <optional>
#include <span>
#include <string_view>
#include <utility>

namespace rdmadiag::detail {

template <class E>
using EnumNames = std::span<const std::pair<E, std::string_view>>;

template <class E>
std::string_view enum_name(EnumNames<E> names, E value, std::string_view fallback) {
    for (const auto& [e, n] : names) {
        if (e == value) return n;
    }
    return fallback;
}

// Matches the stable name exactly, or case-insensitively, so "pkey_change" reads as PKEY_CHANGE.
template <class E>
std::optional<E> enum_parse(EnumNames<E> names, std::string_view text) {
    auto lower = [](char c) {
        return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    };
    for (const auto& [e, n] : names) {
        if (n.size() != text.size()) continue;
        bool same = true;
        for (size_t i = 0; i < n.size() && same; ++i) same = lower(n[i]) == lower(text[i]);
        if (same) return e;
    }
    return std::nullopt;
}

}  // namespace rdmadiag::detail
