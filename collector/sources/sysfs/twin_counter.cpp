#include "collector/sources/sysfs/twin_counter.hpp"

#include <algorithm>
#include <limits>

namespace rdmadiag::sysfs {

namespace {

// What a file counted since its last reading; one that went back was reset and counts from 0.
uint64_t rise(std::optional<uint64_t> before, std::optional<uint64_t> now) {
    if (!before || !now) return 0;
    return *now >= *before ? *now - *before : *now;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
    return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max()
                                                        : a + b;
}

}  // namespace

std::optional<uint64_t> TwinCounter::update(std::optional<uint64_t> base,
                                            std::optional<uint64_t> ext) {
    if (!base && !ext) {
        // A file that comes back after this is a new baseline, not a rise from its old value.
        base_ = ext_ = std::nullopt;
        return std::nullopt;
    }
    const uint64_t larger = std::max(base.value_or(0), ext.value_or(0));
    if (!total_ || larger >= *total_) {
        total_ = larger;
    } else {
        total_ = saturating_add(*total_, std::max(rise(base_, base), rise(ext_, ext)));
    }
    base_ = base;
    ext_ = ext;
    return total_;
}

}  // namespace rdmadiag::sysfs
