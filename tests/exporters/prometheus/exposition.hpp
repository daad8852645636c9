#pragma once
// Reads the text exposition format back for the exporter tests, strictly: every family's HELP
// and TYPE once and before its samples, its samples together, label values unescaped. A line
// that breaks the format is a test failure with the line.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdmadiag::prom::test {

struct Sample {
    std::map<std::string, std::string> labels;
    double value = 0;
};

struct Family {
    std::string name;
    std::string help;
    std::string type;  // "counter", "gauge"
    std::vector<Sample> samples;
};

// Families in text order; throws std::runtime_error naming the line on a format error.
std::vector<Family> parse_exposition(const std::string& text);

const Family* family(const std::vector<Family>& fams, const std::string& name);
// The value of the one sample of `name` whose labels include all of `want` (a second match is a
// test failure).
std::optional<double> value(const std::vector<Family>& fams, const std::string& name,
                            const std::map<std::string, std::string>& want);

}  // namespace rdmadiag::prom::test
