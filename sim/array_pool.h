// Global arrays outlive the simulation that used them: the app re-simulates on every change, and
// freshly mapped memory costs a page fault (and a zero fill by the kernel) per page on first
// touch. A recycled array's shadow and claims are empty (zeroed at the end of each launch and
// attempt); its chunks' backup states keep their attempt ids, unique for the whole process, so
// they can never match a new attempt.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "sim/memory.h"

namespace syncscope::sim {

class ArrayPool {
 public:
  // An array with room for `count` cells: a recycled one when the pool has one, else a new one.
  // bits, poison and global_shadow have `count` elements; bits are zero, poison as asked.
  static std::unique_ptr<ArrayStore> take(int count, bool poisoned);
  static void give_back(std::unique_ptr<ArrayStore> array);

  // Process-wide ids for barrier intervals and parallel attempts.
  static uint32_t next_interval() { return interval_ids_.fetch_add(1, std::memory_order_relaxed) + 1; }
  static uint32_t next_attempt() { return attempt_ids_.fetch_add(1, std::memory_order_relaxed) + 1; }

  // Before the ids could wrap around (after ~4·10^9 block steps), call with no simulation running:
  // restarts the ids and forgets every recycled array's chunk states. Simulator does this.
  static void restart_ids_if_needed();

 private:
  static inline std::atomic<uint32_t> interval_ids_{0};
  static inline std::atomic<uint32_t> attempt_ids_{0};
};

}  // namespace syncscope::sim
