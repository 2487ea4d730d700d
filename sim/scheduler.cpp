#include "sim/scheduler.h"

#include "sim/splitmix64.h"

namespace syncscope::sim {

void Scheduler::start_block(const Schedule& schedule, bool forward_order, uint64_t seed, const SimThread* threads,
                            int count) {
  schedule_ = schedule;
  forward_order_ = forward_order;
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
      for (int lane = 0; lane < lanes; ++lane) {
        const SimThread& th = threads_[first + lane];
        if (th.state != ThreadState::Runnable) continue;
        if (!simt_group_open_ || th.simt_pc < simt_group_pc_ ||
            (th.simt_pc == simt_group_pc_ && th.simt_op < simt_group_op_)) {
          simt_group_open_ = true;
          simt_group_pc_ = th.simt_pc;
          simt_group_op_ = th.simt_op;
          simt_group_lanes_ = 0;
        }
        if (th.simt_pc == simt_group_pc_ && th.simt_op == simt_group_op_) simt_group_lanes_ |= 1u << lane;
      }
      if (simt_group_open_) {
        simt_warp_ = w;
        simt_lane_ = 0;
        ++simt_group_serial_;
      }
    }
    if (!simt_group_open_) return -1;
  }
}

}  // namespace syncscope::sim
