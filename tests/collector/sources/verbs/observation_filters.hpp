#pragma once
// Picks observations of one type out of what a source emitted.

#include <vector>

#include "collector/model/observation.hpp"

namespace rdmadiag::testing {

template <class T>
std::vector<T> bodies_of(const std::vector<Observation>& observations) {
    std::vector<T> out;
    for (const auto& obs : observations) {
        if (const auto* body = std::get_if<T>(&obs.body)) out.push_back(*body);
    }
    return out;
}

}  // namespace rdmadiag::testing
