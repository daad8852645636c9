#pragma once
// How one view of a port's GIDs changed: the entries that left and those that came, by index.

#include "collector/model/gid_state.hpp"

namespace rdmadiag::engine::gid {

void diff_gid_tables(const GidTable& before, const GidTable& after, GidDiff& out);

// "index 0 fe80:...:1235 -> fec0:...:1235; +index 3 ..." for evidence, at most `limit` entries.
std::string describe_gid_diff(const GidDiff& diff, size_t limit = 4);

}  // namespace rdmadiag::engine::gid
