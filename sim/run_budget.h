// A simulation's work budget: a runaway kernel must end with a message, never hang the class.
// Each block may run for `seconds` of wall time (the check costs nothing measurable: a thread looks
// at the clock every kCheckEvery kernel operations, the block at every barrier, and the watchdog,
// sim/watchdog.h, preempts a thread that loops without calling the kernel API at all). The step and
// operation caps bound what a block does in that time; all three grow with `seconds`.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

namespace syncscope::sim {

inline constexpr double kDefaultSecondsPerBlock = 2.0;
inline constexpr double kMinSecondsPerBlock = 0.05;
inline constexpr double kMaxSecondsPerBlock = 86400.0;

struct RunBudget {
  double seconds = kDefaultSecondsPerBlock;  // wall time one block may run (--time-limit)
  // Set by whoever started the simulation (the app's Cancel, a newer edit): the run stops as soon as
  // it can and fails with SimErrorKind::Cancelled.
  std::shared_ptr<const std::atomic<bool>> cancel;

  static constexpr uint32_t kCheckEvery = 4096;  // kernel operations of one thread between checks
  // Barrier intervals one block may pass in a launch, and kernel operations (accesses, shuffles,
  // atomics, basic blocks of a SIMT twin) its threads may make together.
  int max_steps() const { return static_cast<int>((1 << 16) * scale()); }
  uint64_t max_operations_per_block() const { return static_cast<uint64_t>((uint64_t{1} << 28) * scale()); }
  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

 private:
  double scale() const { return std::clamp(seconds / kDefaultSecondsPerBlock, 1.0, 1024.0); }
};

}  // namespace syncscope::sim
