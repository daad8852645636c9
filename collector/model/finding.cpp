#include "collector/model/finding.hpp"

#include <array>

#include "collector/model/enum_names.hpp"
#include "collector/model/pkey.hpp"

namespace rdmadiag {

namespace {
constexpr std::array<std::pair<Severity, std::string_view>, 3> kSeverities{{
    {Severity::info, "info"},
    {Severity::warning, "warning"},
    {Severity::critical, "critical"},
}};
}  // namespace

std::string_view to_string(Severity s) {
    return detail::enum_name<Severity>(kSeverities, s, "warning");
}
std::optional<Severity> parse_severity(std::string_view text) {
    return detail::enum_parse<Severity>(kSeverities, text);
}

std::string FindingSubject::to_string() const {
    std::string s = device;
    if (port) s += ":" + std::to_string(*port);
    // A subject with no device (a partition) starts with its first part, not a space.
    auto part = [&s](const std::string& text) { s += (s.empty() ? "" : " ") + text; };
    if (index) part("index " + std::to_string(*index));
    if (pkey) part("pkey " + format_pkey(*pkey));
    if (mr) part("mr " + std::to_string(*mr));
    if (pid) part("pid " + std::to_string(*pid));
    return s;
}

std::string Finding::id() const {
    return rule + "/" + subject.to_string();
}

}  // namespace rdmadiag
