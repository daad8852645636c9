#pragma once
// Splits one scenario line into words, keeping each word's column for error messages.
// Words are separated by blanks; double quotes group blanks into a word ("100 Gb/sec (4X EDR)")
// and may appear inside one (rate="100 Gb/sec"); \" and \\ escape inside quotes; '#' outside
// quotes starts a comment.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::sim {

struct Token {
    std::string text;               // without the quotes
    size_t column = 1;              // 1-based, where the word starts
    size_t eq = std::string::npos;  // position in text of the first '=' outside quotes
    bool operator==(const Token&) const = default;

    bool is_option() const { return eq != std::string::npos && eq > 0; }
    std::string_view key() const { return std::string_view(text).substr(0, eq); }
    std::string_view value() const { return std::string_view(text).substr(eq + 1); }
};

// The error message starts with the column: "12: unterminated quote".
Result<std::vector<Token>> tokenize_line(std::string_view line);

}  // namespace rdmadiag::sim
