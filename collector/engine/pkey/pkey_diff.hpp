#pragma once
// Describes how a P_Key table changed, index by index. Tables are positional (opensm keeps a key's
// index and fills holes), so a key that left one index and appeared at another is a move, which
// breaks every consumer that holds the old index.

#include <string>

#include "collector/model/pkey_state.hpp"

namespace rdmadiag::engine::pkey {

// The changes from `before` to `after`, by index. Indexes unreadable in either table are left
// out: nothing is known of them. A key that arrives where `before` held another base key carries
// that key as previous_key (an index emptied earlier is the caller's to remember: see
// VacatedIndexes).
std::vector<PKeyEntryChange> diff_pkey_tables(const PKeyTable& before, const PKeyTable& after);

// Whether two tables hold the same keys at every index readable in both (a shorter table reads as
// empty slots past its end).
bool pkey_tables_agree(const PKeyTable& a, const PKeyTable& b);

// The indexes where two tables disagree (as above), at most `limit` of them.
std::vector<uint16_t> pkey_disagreements(const PKeyTable& a, const PKeyTable& b, size_t limit);

// "0x8001 moved from index 3 to index 5", "0x8002 removed from index 4", "0x8005 added at index 2,
// reusing the index of 0x8002", ...
std::string describe_change(const PKeyEntryChange& change);
// The changes in one line, at most `limit` of them then "and N more".
std::string describe_changes(const std::vector<PKeyEntryChange>& changes, size_t limit = 4);

}  // namespace rdmadiag::engine::pkey
