#pragma once
// The blanks around a field of a text line: spaces and tabs in front; spaces, tabs and a carriage
// return behind (a line of a file written with CRLF, an HTTP header line).

#include <string_view>

namespace rdmadiag::common {

inline std::string_view trim_blanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

}  // namespace rdmadiag::common
