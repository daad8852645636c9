#pragma once
// How one view of a port's GIDs changed: the entries that left and those that came. The indexed
// views (cache, sma, sm) are compared index by index; the netdev view's order is no table index
// (an address added before others would move them all), so its entries are compared by value.

#include "collector/model/gid_state.hpp"

namespace rdmadiag::engine::gid {

// Fills `out.removed` and `out.added`; `out.view` says how to compare.
void diff_gid_tables(const GidTable& before, const GidTable& after, GidDiff& out);

// "-index 0 fe80:...:1235; +index 0 fec0:...:1235" (the netdev view: "+fe80:... (eth0)"), at
// most `limit` entries.
std::string describe_gid_diff(const GidDiff& diff, size_t limit = 4);

}  // namespace rdmadiag::engine::gid
