#include "collector/model/pkey_state.hpp"

#include <array>

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {
constexpr std::array<std::pair<PKeyChangeKind, std::string_view>, 4> kChangeKinds{{
    {PKeyChangeKind::added, "added"},
    {PKeyChangeKind::removed, "removed"},
    {PKeyChangeKind::moved, "moved"},
    {PKeyChangeKind::membership_changed, "membership_changed"},
}};
constexpr std::array<std::pair<CacheJudgement, std::string_view>, 5> kJudgements{{
    {CacheJudgement::unknown, "unknown"},
    {CacheJudgement::coherent, "coherent"},
    {CacheJudgement::pending, "pending"},
    {CacheJudgement::stale, "stale"},
    {CacheJudgement::not_watched, "not_watched"},
}};
}  // namespace

std::string_view to_string(PKeyChangeKind kind) {
    return detail::enum_name<PKeyChangeKind>(kChangeKinds, kind, "added");
}
std::optional<PKeyChangeKind> parse_pkey_change_kind(std::string_view text) {
    return detail::enum_parse<PKeyChangeKind>(kChangeKinds, text);
}
std::string_view to_string(CacheJudgement j) {
    return detail::enum_name<CacheJudgement>(kJudgements, j, "unknown");
}
std::optional<CacheJudgement> parse_cache_judgement(std::string_view text) {
    return detail::enum_parse<CacheJudgement>(kJudgements, text);
}

}  // namespace rdmadiag
