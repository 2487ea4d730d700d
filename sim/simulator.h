// Runs launches of single-source kernels on the CPU: blocks one after another, each block's threads
// as fibers (BlockRunner), and keeps the trace. Blocks being looked at ("detailed") run under the
// chosen schedule with every event recorded; the others run fast and fall back to the schedule
// only when they race (see block_runner.h).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/array_pool.h"
#include "sim/block_runner.h"
#include "sim/memory.h"
#include "sim/run_budget.h"
#include "sim/run_progress.h"
#include "sim/schedule.h"
#include "sim/simt.h"
#include "sim/trace.h"
#include "sim/worker_pool.h"

namespace syncscope::sim {

class SimCtx;

struct SimOptions {
  Schedule schedule;
  // Linear block indices to record in full. Empty: every block of a launch with at most
  // kAutoDetailBlocks blocks, else block 0. A launch with none of the listed blocks uses the
  // empty-list rule.
  std::vector<int> detail_blocks;
  static constexpr int kAutoDetailBlocks = 4;
  // Launches keep a copy of global memory afterwards while all global arrays together hold at most
  // this many elements (the app's timeline shows them; huge runs keep only the final state).
  size_t snapshot_limit_elements = size_t{1} << 20;
  // False: no copy of global memory at all (before, between launches, at the end; the output is
  // still kept). For a caller that reads only the output and the steps (the CLI, the race lab):
  // the copies cost time and memory here, and a kernel file's worker would send them all back.
  bool global_memory = true;
  // OS threads that run blocks of a launch side by side (0: one per core). The result does not
  // depend on it: a launch whose blocks share global memory runs again in block order.
  int threads = 0;
  // Wall time, steps and operations a block may use, and the cancel flag (sim/run_budget.h).
  RunBudget budget;
  // Launches and blocks done, for whoever shows progress (null: no one is watching).
  std::shared_ptr<RunProgress> progress;
};

class Simulator final : public BlockHost {
 public:
  explicit Simulator(SimOptions options);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // A global array. Poisoned cells read as "never written" (cudaMalloc'd memory).
  int alloc_global(std::string name, DType dtype, int count, bool poisoned, const char* layout = nullptr);
  ArrayStore& global(int id) { return *globals_.at(id); }
  int global_count() const { return static_cast<int>(globals_.size()); }

  // Runs `kernel(closure, ctx)` for every thread of every block; lockstep blocks run `simt_kernel`
  // instead where there is one (sim/simt.h). Does nothing once the run failed.
  void launch(std::string label, Dim3 grid, Dim3 block, int shared_bytes, KernelEntry kernel, KernelEntry simt_kernel,
              void* closure);

  const Trace& trace() const { return trace_; }
  Trace take_trace() { return std::move(trace_); }
  bool failed() const { return trace_.error.has_value(); }
  const SimOptions& options() const { return options_; }

  // Launches whose blocks ran side by side, and launches that had to run again in block order.
  int parallel_launches() const { return parallel_launches_; }
  int rolled_back_launches() const { return rolled_back_launches_; }

  // --- for BlockRunner (BlockHost) ---
  const RunBudget& budget() const override { return options_.budget; }
  int shared_array_id(LaunchState& launch, int slot, const ArrayStore& a) override;
  void record_error(SimError e);

 private:
  // What the blocks of a launch add up to; one per worker during a parallel attempt.
  struct BlockTotals {
    CounterSummary counters;
    HazardLog hazards;
    int steps = 0;
    uint64_t blocks_rerun = 0;
    std::optional<SimError> error;
    struct BlockPrinted {
      int block;
      BlockRunner::Printed printed;
    };
    std::vector<BlockPrinted> printed;  // device printf of the blocks that printed, as their runs stood
    std::vector<std::pair<int, uint8_t>> cross_block_order;  // per block run: BlockRunner::cross_block_order()
  };
  // Cross-block races the blocks' fences and atomics may order become warnings (HazardLog).
  static void soften_ordered_races(BlockTotals& totals);

  // Runs one block into `totals`; false when it failed.
  bool run_block(BlockRunner& runner, LaunchState& ls, int block, BlockTrace* detail, BlockTotals& totals);
  std::vector<int> block_order(int launch, int block_count) const;
  void run_in_order(LaunchState& ls, LaunchTrace& lt, const std::vector<int>& detailed, BlockTotals& totals);
  bool try_in_parallel(LaunchState& ls, LaunchTrace& lt, const std::vector<int>& detailed, BlockTotals& totals);
  std::vector<int> detailed_blocks(int block_count) const;
  // The launch's device printf on stdout, block by block in the schedule's block order (as a GPU
  // prints its buffer at the next synchronization); what the cap left out is said on stderr.
  void write_printed(const LaunchState& ls, const std::string& label, std::vector<BlockTotals::BlockPrinted>& printed) const;
  std::vector<ArraySnapshot> snapshot_globals() const;
  bool globals_small_enough() const;
  int worker_count() const;

  SimOptions options_;
  Trace trace_;
  std::vector<std::unique_ptr<ArrayStore>> globals_;
  std::vector<std::unique_ptr<BlockRunner>> runners_;  // one per worker
  std::unique_ptr<WorkerPool> pool_;
  std::mutex arrays_mutex_;
  int parallel_launches_ = 0;
  int rolled_back_launches_ = 0;
};

}  // namespace syncscope::sim
