#include "collector/sim/line_tokens.hpp"

namespace rdmadiag::sim {

namespace {
bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
}  // namespace

Result<std::vector<Token>> tokenize_line(std::string_view line) {
    std::vector<Token> tokens;
    size_t i = 0;
    while (i < line.size()) {
        if (is_blank(line[i])) {
            ++i;
            continue;
        }
        if (line[i] == '#') break;
        Token tok;
        tok.column = i + 1;
        while (i < line.size() && !is_blank(line[i]) && line[i] != '#') {
            if (line[i] == '"') {
                const size_t open = i++;
                bool closed = false;
                while (i < line.size()) {
                    const char c = line[i];
                    if (c == '\\' && i + 1 < line.size() &&
                        (line[i + 1] == '"' || line[i + 1] == '\\')) {
                        tok.text.push_back(line[i + 1]);
                        i += 2;
                    } else if (c == '"') {
                        ++i;
                        closed = true;
                        break;
                    } else {
                        tok.text.push_back(c);
                        ++i;
                    }
                }
                if (!closed) {
                    return make_error(std::to_string(open + 1) + ": unterminated quote");
                }
                continue;
            }
            if (line[i] == '=' && tok.eq == std::string::npos) tok.eq = tok.text.size();
            tok.text.push_back(line[i]);
            ++i;
        }
        tokens.push_back(std::move(tok));
    }
    return tokens;
}

}  // namespace rdmadiag::sim
