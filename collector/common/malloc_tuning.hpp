#pragma once
// How the daemon asks glibc's malloc to hold less memory it no longer uses.
//
// Every thread that allocates gets an arena of its own by default (up to eight per core), and
// each arena keeps the freed blocks of the largest thing its thread built: the HTTP server's two
// threads take scrapes in turn, so each would keep a /metrics serialization's worth of heap (many
// times the text). The daemon's allocations are few and short; two arenas serve them without
// contention worth the memory. Measured with scripts/bench-node-exporter (16x2 tree): 11.3 MiB
// resident with both calls below, 12.0 with the trim alone, 12.6 to 14.1 MiB with neither.

#include <cstddef>
#include <cstdint>

namespace rdmadiag::common {

// Arenas the daemon's threads share. Call before any thread starts.
constexpr int kDaemonMallocArenas = 2;
// Blocks this large or larger are mapped on their own and unmapped when freed.
constexpr size_t kMmapThresholdBytes = 256 * 1024;
void limit_malloc_arenas(int arenas = kDaemonMallocArenas);

// Gives freed heap pages back to the kernel; for after a large buffer was built and dropped.
void release_free_heap();

// This process's memory: resident size, heap handed out, heap held free (fragmentation).
struct ProcessMemory {
    uint64_t resident_bytes = 0;
    uint64_t heap_in_use_bytes = 0;
    uint64_t heap_free_bytes = 0;
    bool operator==(const ProcessMemory&) const = default;
};
ProcessMemory read_process_memory();

}  // namespace rdmadiag::common
