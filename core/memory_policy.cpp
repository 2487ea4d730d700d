#include "core/memory_policy.h"

#include <cstdlib>  // first: it defines __GLIBC__, which the test below needs (without it this function was empty)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace syncscope {

void keep_freed_memory_for_the_next_run() {
#if defined(__GLIBC__)
  // Setting either turns glibc's own adjustment of both off, so both are set.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

}  // namespace syncscope
