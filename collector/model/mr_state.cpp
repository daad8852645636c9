#include "collector/model/mr_state.hpp"

#include <array>

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {
constexpr std::array<std::pair<MrState, std::string_view>, 6> kMrStates{{
    {MrState::valid, "valid"},
    {MrState::invalid, "invalid"},
    {MrState::unknown, "unknown"},
    {MrState::awaiting_teardown, "awaiting_teardown"},
    {MrState::stuck, "stuck"},
    {MrState::deregistered, "deregistered"},
}};
constexpr std::array<std::pair<MrRecoveryKind, std::string_view>, 3> kRecoveryKinds{{
    {MrRecoveryKind::dereg, "dereg"},
    {MrRecoveryKind::known_again, "known_again"},
    {MrRecoveryKind::absent_from_listing, "absent_from_listing"},
}};
}  // namespace

std::string_view to_string(MrState s) {
    return detail::enum_name<MrState>(kMrStates, s, "valid");
}
std::optional<MrState> parse_mr_state(std::string_view text) {
    return detail::enum_parse<MrState>(kMrStates, text);
}

std::string_view to_string(MrRecoveryKind k) {
    return detail::enum_name<MrRecoveryKind>(kRecoveryKinds, k, "dereg");
}
std::optional<MrRecoveryKind> parse_mr_recovery_kind(std::string_view text) {
    return detail::enum_parse<MrRecoveryKind>(kRecoveryKinds, text);
}

uint64_t MrHealth::count(MrState s) const {
    uint64_t n = 0;
    for (const auto& d : devices) {
        auto it = d.by_state.find(s);
        if (it != d.by_state.end()) n += it->second;
    }
    return n;
}

}  // namespace rdmadiag
