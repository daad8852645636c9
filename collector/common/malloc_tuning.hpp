#pragma once
// How the daemon asks glibc's malloc to hold less memory it no longer uses.
//
// Every thread that allocates gets an arena of its own by default (up to eight per core), and
// each arena keeps the freed blocks of the largest response its thread built: with a pool of
// HTTP workers taking scrapes in turn, that is one retained /metrics text per worker. The daemon's
// allocations are few and short; two arenas serve them without contention worth the memory.

#include <cstddef>

namespace rdmadiag::common {

// Arenas the daemon's threads share. Call before any thread starts.
constexpr int kDaemonMallocArenas = 2;
void limit_malloc_arenas(int arenas = kDaemonMallocArenas);

// Gives freed heap pages back to the kernel; for after a large buffer was built and dropped.
void release_free_heap();

}  // namespace rdmadiag::common
