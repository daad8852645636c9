#include "collector/common/malloc_tuning.hpp"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>

namespace rdmadiag::common {

void limit_malloc_arenas(int arenas) {
    mallopt(M_ARENA_MAX, arenas);
    // A fixed threshold: glibc otherwise raises it to the size of each large block freed (up to
    // 32 MiB), after which a scrape's text and a pass's tables come from the heap and stay there.
    mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
}

void release_free_heap() {
    malloc_trim(0);
}

ProcessMemory read_process_memory() {
    ProcessMemory m;
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) == 2 && resident > 0)
            m.resident_bytes = static_cast<uint64_t>(resident) * sysconf(_SC_PAGESIZE);
        std::fclose(f);
    }
    const auto info = mallinfo2();  // every arena, and the blocks mapped on their own
    m.heap_in_use_bytes = info.uordblks + info.hblkhd;
    m.heap_free_bytes = info.fordblks;
    return m;
}

}  // namespace rdmadiag::common
