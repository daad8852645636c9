#include "tests/exporters/prometheus/exposition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rdmadiag::prom::test {

namespace {

[[noreturn]] void fail(size_t line, const std::string& why, const std::string& text) {
    throw std::runtime_error("line " + std::to_string(line) + ": " + why + ": " + text);
}

double parse_value(const std::string& s) {
    if (s == "NaN") return std::nan("");
    if (s == "+Inf") return std::numeric_limits<double>::infinity();
    if (s == "-Inf") return -std::numeric_limits<double>::infinity();
    size_t used = 0;
    double v = std::stod(s, &used);
    if (used != s.size()) throw std::invalid_argument(s);
    return v;
}

Sample parse_sample(const std::string& line, size_t n, std::string& name) {
    Sample s;
    size_t i = 0;
    while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
    name = line.substr(0, i);
    if (i < line.size() && line[i] == '{') {
        ++i;
        while (i < line.size() && line[i] != '}') {
            size_t eq = line.find("=\"", i);
            if (eq == std::string::npos) fail(n, "label without =\"", line);
            std::string key = line.substr(i, eq - i);
            std::string value;
            size_t j = eq + 2;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size()) {
                    char e = line[++j];
                    value += e == 'n' ? '\n' : e;
                } else {
                    value += line[j];
                }
            }
            if (j >= line.size()) fail(n, "unterminated label value", line);
            if (!s.labels.emplace(key, value).second) fail(n, "label twice", line);
            i = j + 1;
            if (i < line.size() && line[i] == ',') ++i;
        }
        if (i >= line.size()) fail(n, "unterminated label set", line);
        ++i;
    }
    if (i >= line.size() || line[i] != ' ') fail(n, "no value", line);
    try {
        s.value = parse_value(line.substr(i + 1));
    } catch (const std::exception&) {
        fail(n, "bad value", line);
    }
    return s;
}

}  // namespace

std::vector<Family> parse_exposition(const std::string& text) {
    std::vector<Family> out;
    std::set<std::string> seen;
    std::istringstream in(text);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.rfind("# HELP ", 0) == 0) {
            size_t sp = line.find(' ', 7);
            std::string name = line.substr(7, sp - 7);
            if (!seen.insert(name).second) fail(n, "family declared twice", line);
            out.push_back(Family{name, sp == std::string::npos ? "" : line.substr(sp + 1), "", {}});
        } else if (line.rfind("# TYPE ", 0) == 0) {
            if (out.empty() || !out.back().type.empty() || !out.back().samples.empty())
                fail(n, "TYPE not right after its HELP", line);
            std::istringstream w(line.substr(7));
            std::string name, type;
            w >> name >> type;
            if (name != out.back().name) fail(n, "TYPE of another family", line);
            out.back().type = type;
        } else if (!line.empty()) {
            std::string name;
            Sample s = parse_sample(line, n, name);
            if (out.empty() || out.back().name != name) fail(n, "sample outside its family", line);
            out.back().samples.push_back(std::move(s));
        }
    }
    for (const auto& f : out) {
        if (f.samples.empty()) throw std::runtime_error("family without samples: " + f.name);
    }
    return out;
}

const Family* family(const std::vector<Family>& fams, const std::string& name) {
    for (const auto& f : fams) {
        if (f.name == name) return &f;
    }
    return nullptr;
}

std::optional<double> value(const std::vector<Family>& fams, const std::string& name,
                            const std::map<std::string, std::string>& want) {
    const Family* f = family(fams, name);
    if (!f) return std::nullopt;
    std::optional<double> found;
    for (const auto& s : f->samples) {
        bool match = true;
        for (const auto& [k, v] : want) {
            auto it = s.labels.find(k);
            match = match && it != s.labels.end() && it->second == v;
        }
        if (!match) continue;
        EXPECT_FALSE(found) << name << " matched twice";
        found = s.value;
    }
    return found;
}

}  // namespace rdmadiag::prom::test
