// BlockRunner's barriers (sim/block_runner.h): what happens when no thread of the block can run,
// everyone at one barrier (the usual case), or threads waiting where others never come. A file of
// its own to keep block_runner.cpp within bounds.
#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "sim/block_runner.h"
#include "sim/describe.h"

namespace syncscope::sim {

bool BlockRunner::all_blocked_resolve() {
  if (running_ == 0) {
    end_step(kNoLine);
    return false;
  }
  if (at_barrier_ == threads_per_block_ && !barrier_lines_differ_) {
    release_barrier();  // the usual case: everyone waits at the same barrier
    return !failed_;
  }
  // Something is wrong; find out what, thread by thread.
  std::map<LineId, std::vector<int>> at_barrier, at_warp_op;
  std::vector<int> exited;
  for (int t = 0; t < threads_per_block_; ++t) {
    switch (threads_[t].state) {
      case ThreadState::AtBarrier: at_barrier[threads_[t].wait_line].push_back(t); break;
      case ThreadState::AtWarpOp: at_warp_op[threads_[t].wait_line].push_back(t); break;
      case ThreadState::Exited: exited.push_back(t); break;
      default: break;
    }
  }
  std::vector<LineId> lines;
  std::ostringstream why;
  auto list_waiters = [&](const std::map<LineId, std::vector<int>>& groups, const char* what) {
    for (const auto& [line, ts] : groups) {
      why << "; " << describe_threads(ts) << " wait at the " << what << " at " << LineTable::describe(line);
      lines.push_back(line);
    }
  };
  if (!at_warp_op.empty()) {
    report_stuck_warp_operations(at_warp_op);
    why << "a warp operation can never complete";
    list_waiters(at_warp_op, "warp operation");
    list_waiters(at_barrier, "barrier");
    if (!exited.empty()) why << "; " << describe_threads(exited) << " exited";
    fail(SimErrorKind::WarpDivergence, why.str(), lines);
    return false;
  }
  // Threads that exited (at a `return`, or at the kernel's end past a barrier in a branch or a loop
  // they left) before the one barrier the others wait at: a GPU does not wait for them, and the
  // barrier orders the others as ever (an H200, 2026-11-29; synccheck and racecheck silent: both are
  // the thread's exit). CUDA promises that only where every thread reaches it: a warning
  // (ExitedBeforeBarrier) for each return (and for the kernel's end), once a block, with where to
  // keep the threads.
  if (at_barrier.size() == 1 && !exited.empty()) {
    const auto& [line, waiting] = *at_barrier.begin();
    for (int t : exited)
      if (std::find(returns_told_.begin(), returns_told_.end(), threads_[t].return_line) == returns_told_.end()) {
        returns_told_.push_back(threads_[t].return_line);
        shadow_.exited_before_barrier(waiting.front(), t, threads_[t].return_line, line);
      }
    release_barrier();
    return !failed_;
  }
  if (!exited.empty() || at_barrier.size() > 1) {
    why << "barrier divergence: not every thread of block " << block_linear_ << " reaches the same barrier";
    list_waiters(at_barrier, "barrier");
    if (!exited.empty()) why << "; " << describe_threads(exited) << " already exited";
    why << " (on a GPU this hangs or silently misbehaves)";
    fail(SimErrorKind::BarrierDivergence, why.str(), lines);
    // Each barrier's first waiter beside a thread that exited, or else the first of another barrier's.
    for (const auto& [line, waiting] : at_barrier) {
      int other = exited.empty() ? -1 : exited.front();
      LineId other_line = kNoLine;
      for (const auto& [elsewhere, those] : at_barrier)
        if (other < 0 && elsewhere != line) other = those.front(), other_line = elsewhere;
      shadow_.barrier_divergence(waiting.front(), line, other, other_line);
    }
    return false;
  }
  release_barrier();
  return !failed_;
}

void BlockRunner::release_barrier() {
  const LineId line = barrier_line_;
  barrier_votes_counted_ = std::exchange(barrier_votes_, 0);
  barrier_arrivals_ = at_barrier_;
  end_step(line);
  if (over_budget_at_barrier(line)) return;
  late_basic_blocks_ = 0;
  ++step_;
  new_interval();
  for (int t = 0; t < threads_per_block_; ++t)
    if (threads_[t].state != ThreadState::Exited) threads_[t].state = ThreadState::Runnable;
  at_barrier_ = 0;
  barrier_lines_differ_ = false;
  scheduler_.restart();
  if (simt_) reset_simt_positions();  // only lockstep's lanes have positions
}

void BlockRunner::report_stuck_warp_operations(const std::map<LineId, std::vector<int>>& at_warp_op) {
  // Lanes wait at a warp operation that a lane its mask names never reaches: name a waiting lane
  // and where a missing one is (at a barrier, at another warp operation, or exited).
  for (const auto& [line, ts] : at_warp_op) {
    const int waiter = ts.front();
    const int w = waiter / kWarpSize;
    const WarpUnit::Waiting g = warps_.waiting(waiter);
    const uint32_t missing = g.mask & ~g.arrived;
    if (!missing) continue;
    const int lane = w * kWarpSize + std::countr_zero(missing);
    const SimThread& other = threads_[lane];
    const bool exited = other.state == ThreadState::Exited;
    const LineId where = exited ? other.return_line : other.wait_line;
    if (g.masked)
      shadow_.mask_hazard(exited ? MaskProblem::LaneExited : MaskProblem::LaneElsewhere, g.mask, waiter, lane, where,
                          line);
    else
      shadow_.warp_hazard(exited ? HazardKind::ExitedLane : HazardKind::WarpDivergence, waiter, lane, where, line);
  }
}

}  // namespace syncscope::sim
