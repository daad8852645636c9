#include "collector/common/malloc_tuning.hpp"

#include <malloc.h>

namespace rdmadiag::common {

void limit_malloc_arenas(int arenas) {
    mallopt(M_ARENA_MAX, arenas);
}

void release_free_heap() {
    malloc_trim(0);
}

}  // namespace rdmadiag::common
