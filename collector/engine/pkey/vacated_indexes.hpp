#pragma once
// Which key last held each empty index of a table. opensm keeps a removed key's index free and
// hands it to another key only later (when the table has no room left after its last used index),
// so the change that reuses an index is usually not the one that emptied it: only this memory lets
// that later change be recognised as a reuse.

#include <cstdint>
#include <vector>

#include "collector/model/pkey.hpp"
#include "collector/model/pkey_state.hpp"

namespace rdmadiag::engine::pkey {

struct VacatedIndex {
    uint16_t index = 0;
    uint16_t key = 0;  // the key that left it
    bool operator==(const VacatedIndex&) const = default;
};

class VacatedIndexes {
public:
    // One change of the table, now `after`: marks the arrivals on remembered empty indexes with
    // the key that left them (previous_key, unless the diff already knows one), then remembers the
    // indexes this change emptied and forgets those it filled.
    void apply(std::vector<PKeyEntryChange>& changes, const PKeyTable& after);

    const std::vector<VacatedIndex>& entries() const { return entries_; }

private:
    std::vector<VacatedIndex> entries_;  // by index, at most one per index
};

}  // namespace rdmadiag::engine::pkey
