// Who runs next in a block: the schedule's order among the runnable threads. `forward` and the
// fast mode take the lowest runnable thread (inline: it is on every hand-over), `reverse` the
// highest, `random:SEED` any (a fixed sequence per seed, launch and block), `lockstep` the SIMT
// order (pick_simt).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "contract/kernel_api.h"
#include "sim/limits.h"
#include "sim/schedule.h"
#include "sim/sim_thread.h"

namespace syncscope::sim {

class Scheduler {
 public:
  void start_block(const Schedule& schedule, bool forward_order, uint64_t seed, const SimThread* threads, int count);
  // Every thread runnable again (a barrier released): cursors and SIMT positions start over.
  void restart();
  void made_runnable(int t) {
    low_cursor_ = std::min(low_cursor_, t);
    high_cursor_ = std::max(high_cursor_, t);
  }

  // Lockstep: the lanes (bit per lane of the warp) executing the current warp instruction together.
  uint32_t simt_group_lanes() const { return simt_group_lanes_; }
  // Lockstep: changes each time a warp instruction begins.
  uint32_t simt_group_serial() const { return simt_group_serial_; }
  // Which way the next picks most likely go from the thread just picked: +1 (forward, the fast
  // mode and lockstep's lanes), -1 (reverse), 0 (random: no guess).
  int direction() const { return direction_; }
  // The next thread to run, or -1 when none is runnable.
  [[gnu::always_inline]] int pick() {
    if (forward_order_) {
      while (low_cursor_ < count_ && threads_[low_cursor_].state != ThreadState::Runnable) ++low_cursor_;
      return low_cursor_ < count_ ? low_cursor_ : -1;
    }
    return pick_by_schedule();
  }

 private:
  int pick_by_schedule();
  int pick_simt();

  Schedule schedule_;
  bool forward_order_ = false;
  int direction_ = 1;
  const SimThread* threads_ = nullptr;
  int count_ = 0;
  int warps_ = 0;
  int low_cursor_ = 0;   // forward: no runnable thread below it
  int high_cursor_ = 0;  // reverse: no runnable thread above it
  uint64_t rng_ = 0;
  // lockstep: the warp whose instruction is executing, the lanes at that position, and the next
  // lane of it to run
  int simt_warp_ = 0;
  bool simt_group_open_ = false;
  uintptr_t simt_group_pc_ = 0;
  uint32_t simt_group_op_ = 0;
  uint32_t simt_group_lanes_ = 0;  // the lanes at that position when the instruction began
  int simt_lane_ = 0;
  uint32_t simt_group_serial_ = 0;
  // lockstep's forward progress (pick_simt): per warp, the last smallest position it ran, how often
  // its lanes there went back (a loop) while others waited further on, and the instructions left
  // to the lanes furthest on
  struct WarpProgress {
    uintptr_t pc = 0;
    uint32_t op = 0;
    int back_edges = 0;
    int burst = 0;
  };
  std::array<WarpProgress, kMaxThreadsPerBlock / kWarpSize> progress_{};
};

}  // namespace syncscope::sim
