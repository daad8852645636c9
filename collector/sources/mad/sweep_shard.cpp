#include "collector/sources/mad/sweep_shard.hpp"

#include <optional>

#include "collector/common/parse_number.hpp"

namespace rdmadiag::mad {

namespace {

// SplitMix64's finalizer: every input bit moves about half of the output bits.
uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

}  // namespace

bool SweepShard::owns(uint64_t node_guid) const {
    return count <= 1 || mix(node_guid) % count == index;
}

std::string SweepShard::to_string() const {
    return std::to_string(index + 1) + "/" + std::to_string(count);
}

Result<SweepShard> parse_sweep_shard(std::string_view text) {
    const auto slash = text.find('/');
    const auto k = slash == std::string_view::npos
                       ? std::nullopt
                       : common::parse_number<unsigned>(text.substr(0, slash));
    const auto n = slash == std::string_view::npos
                       ? std::nullopt
                       : common::parse_number<unsigned>(text.substr(slash + 1));
    if (!k || !n || *k < 1 || *k > *n || *n > 1024) {
        return make_error("mad.shard must be K/N with 1 <= K <= N <= 1024, not '" +
                          std::string(text) + "'");
    }
    return SweepShard{*k - 1, *n};
}

}  // namespace rdmadiag::mad
