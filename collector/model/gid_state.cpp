#include "collector/model/gid_state.hpp"

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {

constexpr std::pair<GidCoherence, std::string_view> kCoherenceNames[] = {
    {GidCoherence::unknown, "unknown"},
    {GidCoherence::coherent, "coherent"},
    {GidCoherence::pending, "pending"},
    {GidCoherence::stale, "stale"},
};

}  // namespace

std::string_view to_string(GidCoherence c) {
    return detail::enum_name<GidCoherence>(kCoherenceNames, c, "unknown");
}

std::optional<GidCoherence> parse_gid_coherence(std::string_view text) {
    return detail::enum_parse<GidCoherence>(kCoherenceNames, text);
}

}  // namespace rdmadiag
