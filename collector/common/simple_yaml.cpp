#include "collector/common/simple_yaml.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace rdmadiag::common {

namespace {

struct Line {
    int number;
    int indent;
    std::string text;  // without indentation and comment
};

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
    return std::string(s.substr(b, e - b));
}

// Strips a comment that starts outside quotes (a '#' at the start or after whitespace).
std::string strip_comment(std::string_view s) {
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"')
                ++i;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            return std::string(s.substr(0, i));
        }
    }
    return std::string(s);
}

Error line_error(int line, std::string what) {
    return make_error("line " + std::to_string(line) + ": " + std::move(what));
}

Result<std::string> unquote(std::string_view s, int line) {
    if (s.empty()) return std::string();
    char q = s.front();
    if (q != '"' && q != '\'') {
        if (q == '&' || q == '*' || q == '!' || q == '|' || q == '>' || q == '{')
            return line_error(line, "unsupported YAML construct '" + std::string(1, q) + "'");
        return std::string(s);
    }
    if (s.size() < 2 || s.back() != q) return line_error(line, "unterminated quoted string");
    std::string out;
    for (size_t i = 1; i + 1 < s.size(); ++i) {
        char c = s[i];
        if (q == '\'' && c == '\'' && i + 2 < s.size() && s[i + 1] == '\'') {
            out += '\'';
            ++i;
        } else if (q == '"' && c == '\\' && i + 2 < s.size()) {
            char n = s[++i];
            switch (n) {
                case 'n':
                    out += '\n';
                    break;
                case 't':
                    out += '\t';
                    break;
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                default:
                    return line_error(line, std::string("unsupported escape \\") + n);
            }
        } else {
            out += c;
        }
    }
    return out;
}

// Finds the ':' that separates a key from its value (outside quotes, followed by space or end).
size_t find_key_colon(std::string_view s) {
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == ':' && (i + 1 == s.size() || s[i + 1] == ' ' || s[i + 1] == '\t')) {
            return i;
        }
    }
    return std::string_view::npos;
}

class Parser {
public:
    explicit Parser(std::vector<Line> lines) : lines_(std::move(lines)) {}

    Result<YamlNode> document() {
        if (lines_.empty()) return YamlNode{};
        auto node = RDMADIAG_TRY(block(lines_[0].indent));
        if (pos_ < lines_.size()) return line_error(lines_[pos_].number, "unexpected indentation");
        return node;
    }

private:
    Result<YamlNode> scalar_value(std::string_view text, int line) {
        YamlNode n;
        n.line = line;
        std::string t = trim(text);
        if (t.empty() || t == "~" || t == "null") return n;
        if (t.front() == '[') {
            if (t.back() != ']') return line_error(line, "unterminated flow sequence");
            n.kind = YamlNode::Kind::list;
            std::string inner = t.substr(1, t.size() - 2);
            if (trim(inner).empty()) return n;
            std::stringstream ss(inner);
            std::string item;
            while (std::getline(ss, item, ',')) {
                auto v = RDMADIAG_TRY(unquote(trim(item), line));
                YamlNode s;
                s.kind = YamlNode::Kind::scalar;
                s.scalar = v;
                s.line = line;
                n.list.push_back(std::move(s));
            }
            return n;
        }
        auto v = RDMADIAG_TRY(unquote(t, line));
        n.kind = YamlNode::Kind::scalar;
        n.scalar = std::move(v);
        return n;
    }

    // Parses the block starting at pos_ whose lines sit at `indent`.
    Result<YamlNode> block(int indent) {
        YamlNode node;
        node.line = lines_[pos_].number;
        bool is_list = lines_[pos_].text.rfind("- ", 0) == 0 || lines_[pos_].text == "-";
        node.kind = is_list ? YamlNode::Kind::list : YamlNode::Kind::map;
        while (pos_ < lines_.size()) {
            const Line& l = lines_[pos_];
            if (l.indent < indent) break;
            if (l.indent > indent) return line_error(l.number, "unexpected indentation");
            bool item = l.text.rfind("- ", 0) == 0 || l.text == "-";
            if (is_list && !item) break;  // a sequence under a key may end at the key's indent
            if (item != is_list) return line_error(l.number, "mixed sequence and mapping");
            if (is_list) {
                std::string rest = l.text.size() > 1 ? trim(l.text.substr(2)) : "";
                if (rest.empty()) {
                    ++pos_;
                    node.list.push_back(RDMADIAG_TRY(nested(indent, l.number, false)));
                } else if (find_key_colon(rest) != std::string::npos) {
                    return line_error(l.number, "mappings inside sequences are not supported");
                } else {
                    node.list.push_back(RDMADIAG_TRY(scalar_value(rest, l.number)));
                    ++pos_;
                }
                continue;
            }
            size_t colon = find_key_colon(l.text);
            if (colon == std::string::npos) return line_error(l.number, "expected 'key: value'");
            auto key = RDMADIAG_TRY(unquote(trim(l.text.substr(0, colon)), l.number));
            if (key.empty()) return line_error(l.number, "empty key");
            for (const auto& [k, v] : node.map) {
                if (k == key) return line_error(l.number, "duplicate key '" + key + "'");
            }
            std::string rest = trim(l.text.substr(colon + 1));
            ++pos_;
            if (rest.empty()) {
                auto child = RDMADIAG_TRY(nested(indent, l.number, true));
                node.map.emplace_back(std::move(key), std::move(child));
            } else {
                auto value = RDMADIAG_TRY(scalar_value(rest, l.number));
                node.map.emplace_back(std::move(key), std::move(value));
            }
        }
        return node;
    }

    // The value under a "key:" or "-" line: a deeper block, or null. YAML lets a sequence sit at
    // its parent key's indentation.
    Result<YamlNode> nested(int parent_indent, int line, bool parent_is_map) {
        if (pos_ < lines_.size()) {
            const Line& next = lines_[pos_];
            bool item = next.text.rfind("- ", 0) == 0 || next.text == "-";
            if (next.indent > parent_indent ||
                (parent_is_map && next.indent == parent_indent && item)) {
                return block(next.indent);
            }
        }
        YamlNode n;
        n.line = line;
        return n;
    }

    std::vector<Line> lines_;
    size_t pos_ = 0;
};

}  // namespace

YamlNode::YamlNode() = default;

const YamlNode* YamlNode::get(std::string_view key) const {
    for (const auto& [k, v] : map) {
        if (k == key) return &v;
    }
    return nullptr;
}

Result<YamlNode> parse_simple_yaml(std::string_view text) {
    std::vector<Line> lines;
    int number = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view raw = text.substr(start, end - start);
        ++number;
        start = end + 1;
        std::string body = strip_comment(raw);
        int indent = 0;
        while (static_cast<size_t>(indent) < body.size() &&
               body[static_cast<size_t>(indent)] == ' ')
            ++indent;
        if (static_cast<size_t>(indent) < body.size() && body[static_cast<size_t>(indent)] == '\t')
            return line_error(number, "tabs are not allowed for indentation");
        std::string t = trim(body);
        if (t.empty() || t == "---") continue;
        if (t == "...") break;
        lines.push_back(Line{number, indent, t});
        if (end == text.size()) break;
    }
    return Parser(std::move(lines)).document();
}

}  // namespace rdmadiag::common
