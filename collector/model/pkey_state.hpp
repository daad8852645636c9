#pragma once
// What the engine knows about one port's P_Key table, per view.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/model/pkey.hpp"
#include "collector/model/time.hpp"

namespace rdmadiag {

struct PKeyViewState {
    PKeyView view = PKeyView::device;
    PKeyTable table;
    uint64_t generation = 0;  // rises on every real change of the table
    TimePoint changed;        // when the current generation was first seen
    TimePoint confirmed;      // when it was last read back unchanged
    std::string source;       // who supplied it
    bool operator==(const PKeyViewState&) const = default;
};

struct PortPKeyState {
    std::vector<PKeyViewState> views;  // at most one per PKeyView, in PKeyView order

    const PKeyViewState* find(PKeyView v) const {
        for (const auto& s : views) {
            if (s.view == v) return &s;
        }
        return nullptr;
    }
    bool operator==(const PortPKeyState&) const = default;
};

}  // namespace rdmadiag
