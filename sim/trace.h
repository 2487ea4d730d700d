// The trace a run leaves behind: launches → steps (barrier intervals) → per-thread events, plus
// every shared array at the end of every step. Full detail only for the blocks being looked at
// ("detailed blocks"); all blocks contribute counters, hazards and final memory. The app draws
// this read-only; the CLI prints it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/counters.h"
#include "sim/events.h"
#include "sim/hazards.h"
#include "sim/memory.h"

namespace syncscope::sim {

struct ArrayInfo {
  std::string name;
  MemSpace space = MemSpace::Global;
  DType dtype = DType::Float32;
  int size = 0;
  int launch = -1;  // shared arrays belong to one launch
  int columns = 0;  // a 2D shared array (`__shared__ E tile[R][C]`): cells per row; 0 for 1D
  int plane_rows = 0;  // a 3D one (`E box[D][R][C]`, drawn as D × R rows): R; 0 for 1D and 2D
  std::string layout;  // its elements in its cells: a double's two, a struct's fields (sim/element_layout.h)
};

struct ArraySnapshot {
  int array = -1;
  std::vector<uint32_t> bits;
  std::vector<uint8_t> poison;
};

// What one thread printed with one device printf call, without its final newline (sim/limits.h
// bounds it).
struct PrintedLine {
  uint16_t thread = 0;  // block-local thread index
  LineId line = kNoLine;  // the printf's line
  std::string text;
};

struct StepTrace {
  LineId barrier = kNoLine;  // the barrier that ended the step; kNoLine: the threads exited
  std::vector<Event> events;  // in the order the schedule ran them
  std::vector<ArraySnapshot> shared;  // each shared array of the block at the end of the step
  std::string caption;  // the kernel's c.caption(...) for this step, or ""
  std::vector<PrintedLine> printed;  // device printf in this step, in the order the schedule ran them
  uint32_t printed_dropped = 0;      // printf calls of this step past the caps (sim/limits.h), not kept
};

struct BlockTrace {
  int block = 0;  // linear block index
  Dim3 block_idx;
  std::vector<StepTrace> steps;
  std::vector<ThreadCounters> counters;  // per thread
};

struct LaunchTrace {
  std::string label;  // what the host code called this launch
  Dim3 grid, block;
  int shared_bytes = 0;
  int steps = 0;  // the most steps any block took
  std::vector<BlockTrace> blocks;  // detailed blocks only, ascending
  CounterSummary counters;         // all blocks
  std::vector<ArraySnapshot> globals_after;  // global arrays after the launch (when small enough)
  uint64_t blocks_rerun = 0;  // blocks whose fast run raced and were re-run under the schedule
  // Lockstep placed lanes by basic block (the kernel has a SIMT twin, sim/simt.h); otherwise by
  // their count of operations.
  bool simt_twin = false;

  const BlockTrace* find_block(int linear) const {
    for (const auto& b : blocks)
      if (b.block == linear) return &b;
    return nullptr;
  }
};

// StepBudget: a block passed too many barriers or made too many operations; TimeBudget: a block ran
// past its wall-time budget (sim/run_budget.h); Cancelled: whoever started the run stopped it.
enum class SimErrorKind : uint8_t { BarrierDivergence, WarpDivergence, StepBudget, SharedMemory, Kernel, TimeBudget, Cancelled };

struct SimError {
  SimErrorKind kind = SimErrorKind::Kernel;
  std::string message;
  int launch = 0;
  int block = 0;
  int step = 0;
  std::vector<LineId> lines;
};

struct Trace {
  std::vector<ArrayInfo> arrays;
  std::vector<ArraySnapshot> globals_before;  // global arrays before the first launch
  std::vector<LaunchTrace> launches;
  HazardLog hazards;
  std::optional<SimError> error;

  // The hazards with one group per race however many launches repeat it (sim/hazards.h).
  std::vector<HazardGroup> hazards_across_launches() const;

  // Stable digest of everything the schedule decided (events, snapshots, memory): same scenario and
  // seed must give the same hash.
  uint64_t hash() const;
};

}  // namespace syncscope::sim
