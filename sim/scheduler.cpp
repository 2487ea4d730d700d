#include "sim/scheduler.h"

#include "sim/splitmix64.h"

namespace syncscope::sim {

void Scheduler::start_block(const Schedule& schedule, bool forward_order, uint64_t seed, const SimThread* threads,
                            int count) {
  schedule_ = schedule;
  forward_order_ = forward_order;
  direction_ = schedule.kind == ScheduleKind::Reverse && !forward_order ? -1
               : schedule.kind == ScheduleKind::Random && !forward_order ? 0
                                                                          : 1;
  threads_ = threads;
  count_ = count;
  warps_ = (count + kWarpSize - 1) / kWarpSize;
  rng_ = seed;
  restart();
}

void Scheduler::restart() {
  low_cursor_ = 0;
  high_cursor_ = count_ - 1;
  simt_warp_ = 0;
  simt_group_open_ = false;
  simt_lane_ = 0;
  progress_.fill({});
}

int Scheduler::pick_by_schedule() {
  const int n = count_;
  auto runnable = [&](int t) { return threads_[t].state == ThreadState::Runnable; };
  switch (schedule_.kind) {
    case ScheduleKind::Reverse:
      while (high_cursor_ >= 0 && !runnable(high_cursor_)) --high_cursor_;
      return high_cursor_;
    case ScheduleKind::Lockstep:
      return pick_simt();
    case ScheduleKind::Random: {
      const int start = static_cast<int>(splitmix64(rng_) % static_cast<uint64_t>(n));
      for (int k = 0; k < n; ++k) {
        const int t = (start + k) % n;
        if (runnable(t)) return t;
      }
      return -1;
    }
    case ScheduleKind::Forward:
      break;
  }
  return -1;
}

// SIMT lockstep. Warps take turns, one warp instruction each. A warp's instruction is the
// operation (or basic block) at the smallest position among its runnable lanes (the MinPC rule of
// SIMT simulators): every lane waiting there runs it, in lane order, up to its next position; a
// lane waiting further on (it skipped a branch, or left a loop early) waits until the others
// arrive, which is where a GPU's warp reconverges.
//
// Forward progress, as independent thread scheduling gives it (Volta and later): when the lanes at
// the smallest position have gone round a loop kPatience times while others of the warp wait
// further on, the lanes furthest on run kBurst instructions. A spin lock whose holder waits at the
// loop's exit while the others spin on it then ends, as it does on an H100, instead of running out
// of time; a loop that ends by itself within kPatience rounds is not touched. (A longer one is: in
// a kernel that races within the warp, the lanes waiting at its exit then move on before it ends.)
namespace {
constexpr int kPatience = 256;
constexpr int kBurst = 32;
bool before(uintptr_t pc, uint32_t op, uintptr_t other_pc, uint32_t other_op) {
  return pc < other_pc || (pc == other_pc && op < other_op);
}
}  // namespace

int Scheduler::pick_simt() {
  for (;;) {
    if (simt_group_open_) {
      const int first = simt_warp_ * kWarpSize;
      const int lanes = std::min(kWarpSize, count_ - first);
      for (; simt_lane_ < lanes; ++simt_lane_) {
        const SimThread& th = threads_[first + simt_lane_];
        if (th.state == ThreadState::Runnable && th.simt_pc == simt_group_pc_ && th.simt_op == simt_group_op_)
          return first + simt_lane_++;
      }
      simt_group_open_ = false;
      simt_warp_ = (simt_warp_ + 1) % warps_;
    }
    for (int k = 0; k < warps_ && !simt_group_open_; ++k) {
      const int w = (simt_warp_ + k) % warps_;
      const int first = w * kWarpSize;
      const int lanes = std::min(kWarpSize, count_ - first);
      bool any = false, diverged = false;
      uintptr_t min_pc = 0, max_pc = 0;
      uint32_t min_op = 0, max_op = 0;
      for (int lane = 0; lane < lanes; ++lane) {
        const SimThread& th = threads_[first + lane];
        if (th.state != ThreadState::Runnable) continue;
        if (!any) {
          min_pc = max_pc = th.simt_pc;
          min_op = max_op = th.simt_op;
          any = true;
          continue;
        }
        if (th.simt_pc != min_pc || th.simt_op != min_op || th.simt_pc != max_pc || th.simt_op != max_op) diverged = true;
        if (before(th.simt_pc, th.simt_op, min_pc, min_op)) min_pc = th.simt_pc, min_op = th.simt_op;
        if (before(max_pc, max_op, th.simt_pc, th.simt_op)) max_pc = th.simt_pc, max_op = th.simt_op;
      }
      if (!any) continue;
      WarpProgress& progress = progress_[w];
      const bool furthest = diverged && progress.burst > 0;
      if (furthest) {
        --progress.burst;
      } else if (!diverged) {
        progress.back_edges = 0;
        progress.burst = 0;
      } else if (before(min_pc, min_op, progress.pc, progress.op) && ++progress.back_edges >= kPatience) {
        progress.back_edges = 0;
        progress.burst = kBurst;
      }
      if (!furthest) progress.pc = min_pc, progress.op = min_op;
      simt_group_open_ = true;
      simt_group_pc_ = furthest ? max_pc : min_pc;
      simt_group_op_ = furthest ? max_op : min_op;
      simt_group_lanes_ = 0;
      for (int lane = 0; lane < lanes; ++lane) {
        const SimThread& th = threads_[first + lane];
        if (th.state == ThreadState::Runnable && th.simt_pc == simt_group_pc_ && th.simt_op == simt_group_op_)
          simt_group_lanes_ |= 1u << lane;
      }
      simt_warp_ = w;
      simt_lane_ = 0;
      ++simt_group_serial_;
    }
    if (!simt_group_open_) return -1;
  }
}

}  // namespace syncscope::sim
