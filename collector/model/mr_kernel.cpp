#include "collector/model/mr_kernel.hpp"

#include <array>

#include "collector/common/parse_number.hpp"
#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {
constexpr std::array<std::pair<FlushedMrHandling, std::string_view>, 3> kHandlings{{
    {FlushedMrHandling::not_known, "not_known"},
    {FlushedMrHandling::recovered, "recovered"},
    {FlushedMrHandling::destroyed, "destroyed"},
}};
}  // namespace

std::string_view to_string(FlushedMrHandling h) {
    return detail::enum_name<FlushedMrHandling>(kHandlings, h, "not_known");
}
std::optional<FlushedMrHandling> parse_flushed_mr_handling(std::string_view text) {
    return detail::enum_parse<FlushedMrHandling>(kHandlings, text);
}

FlushedMrHandling flushed_mr_handling_of_release(std::string_view release) {
    auto major = common::take_number<unsigned>(release);
    if (!major || release.empty() || release.front() != '.') return FlushedMrHandling::not_known;
    release.remove_prefix(1);
    auto minor = common::take_number<unsigned>(release);
    if (!minor) return FlushedMrHandling::not_known;
    const bool since = *major > 5 || (*major == 5 && *minor >= 13);
    return since ? FlushedMrHandling::destroyed : FlushedMrHandling::recovered;
}

}  // namespace rdmadiag
