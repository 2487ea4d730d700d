// core/memory_policy.h: arrays freed by one run are there for the next one, without the kernel
// faulting their pages in again. (This function was once compiled empty, its glibc test placed
// before any header that defines __GLIBC__: every decode of a worker's answer faulted in 10 MB.)
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <vector>

#include "core/memory_policy.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SYNCSCOPE_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SYNCSCOPE_OWN_ALLOCATOR 1
#endif

namespace {

long page_faults_so_far() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// Eight 1 MiB arrays written and freed, as a decoded outcome's snapshots are.
uint32_t one_run() {
  std::vector<std::vector<uint32_t>> arrays;
  for (uint32_t k = 0; k < 8; ++k) arrays.emplace_back(size_t{1} << 18, k);
  return arrays[7][12345];
}

}  // namespace

TEST(MemoryPolicy, ArraysFreedByOneRunAreTheNextRunsWithoutPageFaults) {
#ifdef SYNCSCOPE_OWN_ALLOCATOR
  GTEST_SKIP() << "a sanitizer's allocator serves malloc here, not glibc's";
#else
  syncscope::keep_freed_memory_for_the_next_run();
  ASSERT_EQ(one_run(), 7u);  // the first run faults its pages in
  const long before = page_faults_so_far();
  ASSERT_EQ(one_run(), 7u);
  // 8 MiB is 2048 pages; glibc's defaults give them back at the free and fault them in again.
  EXPECT_LT(page_faults_so_far() - before, 64);
#endif
}
