// Per-thread operation counts, scored the way GPU-Puzzles scores a solution (reads and writes of
// global and shared memory per thread), plus barriers waited at and additions performed.
#pragma once

#include <algorithm>
#include <cstdint>

namespace syncscope::sim {

struct ThreadCounters {
  uint32_t global_reads = 0;
  uint32_t global_writes = 0;
  uint32_t shared_reads = 0;
  uint32_t shared_writes = 0;
  uint32_t barriers = 0;
  uint32_t adds = 0;

  ThreadCounters& operator+=(const ThreadCounters& o) {
    global_reads += o.global_reads;
    global_writes += o.global_writes;
    shared_reads += o.shared_reads;
    shared_writes += o.shared_writes;
    barriers += o.barriers;
    adds += o.adds;
    return *this;
  }
  static ThreadCounters max(const ThreadCounters& a, const ThreadCounters& b) {
    return {std::max(a.global_reads, b.global_reads),   std::max(a.global_writes, b.global_writes),
            std::max(a.shared_reads, b.shared_reads),   std::max(a.shared_writes, b.shared_writes),
            std::max(a.barriers, b.barriers),           std::max(a.adds, b.adds)};
  }
  bool operator==(const ThreadCounters&) const = default;
};

// Totals over all threads of a launch and the busiest thread's counts (GPU-Puzzles' "max").
struct CounterSummary {
  ThreadCounters total;
  ThreadCounters max_per_thread;
  uint64_t threads = 0;
  void add_thread(const ThreadCounters& c) {
    total += c;
    max_per_thread = ThreadCounters::max(max_per_thread, c);
    ++threads;
  }
  void merge(const CounterSummary& o) {
    total += o.total;
    max_per_thread = ThreadCounters::max(max_per_thread, o.max_per_thread);
    threads += o.threads;
  }
};

}  // namespace syncscope::sim
