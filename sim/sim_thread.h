// One simulated thread of a block as the runner and its scheduler see it.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstdint>

#include "sim/counters.h"
#include "sim/fault_guard.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

class BlockRunner;

enum class ThreadState : uint8_t { Runnable, AtBarrier, AtWarpOp, Exited, Failed };

struct SimThread {
  void* context = nullptr;  // suspended context; nullptr: not started (or abandoned)
  boost::context::stack_context stack{};
  BlockRunner* runner = nullptr;  // for the fiber's entry
  int index = 0;
  ThreadState state = ThreadState::Exited;
  LineId wait_line = kNoLine;
  LineId return_line = kNoLine;  // the kernel's `return` that ended it, where the kernel says (cu::kernel_return)
  uint16_t shared_allocs = 0;
  // While recording: the access of several cells in progress (Event::access_cells), and its next cell.
  uint8_t access_cells = 0;
  uint8_t access_part = 0;
  uint32_t clock_reads = 0;  // clock64() and clock() calls (BlockRunner::clock_read)
  ThreadCounters counters;
  // SIMT lockstep: where the lane waits. The address of the basic block it last entered (0
  // before the first, or without an instrumented kernel) and how many operations it has
  // started in that block; lanes with equal positions form one warp instruction.
  uintptr_t simt_pc = 0;
  uint32_t simt_op = 0;
  void* tsan_fiber = nullptr;  // ThreadSanitizer builds only (sim/context_switch.h)
  GuardedFiber guard;  // its landing for faults and preemption, and its stack (sim/fault_guard.h)
};

}  // namespace syncscope::sim
