#include "collector/model/mr_state.hpp"

#include <array>

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {
constexpr std::array<std::pair<MrState, std::string_view>, 5> kMrStates{{
    {MrState::valid, "valid"},
    {MrState::invalid, "invalid"},
    {MrState::unknown, "unknown"},
    {MrState::stuck, "stuck"},
    {MrState::deregistered, "deregistered"},
}};
}  // namespace

std::string_view to_string(MrState s) { return detail::enum_name<MrState>(kMrStates, s, "valid"); }
std::optional<MrState> parse_mr_state(std::string_view text) {
    return detail::enum_parse<MrState>(kMrStates, text);
}

}  // namespace rdmadiag
