// Warp-wide operations (shuffles, __syncwarp()). Lanes arrive one at a time, in whatever order the
// schedule runs them; when the warp's last lane arrives, every lane's result is known at once, as
// on a GPU where the warp executes the instruction together. The unit only keeps the rendezvous and
// computes results: parking lanes, and stopping the block when lanes cannot meet, is the runner's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/events.h"
#include "sim/limits.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

class WarpUnit {
 public:
  // What a warp operation delivered to one lane.
  struct LaneResult {
    uint32_t bits = 0;
    bool poison = false;
    int source = 0;    // the lane it came from
    bool own = false;  // the source lane was out of range: the lane kept its own value
  };
  // A lane that cannot join the operation `thread` just arrived at.
  struct Mismatch {
    int other_thread = -1;  // -1: none, the lane may arrive
    WarpOp other_op = WarpOp::None;
    LineId other_line = kNoLine;
  };

  void start_block(int threads_per_block);
  void lane_exited(int thread) { warps_[thread / kWarpSize].exited |= 1u << (thread % kWarpSize); }
  // Lanes of the warp that already left the kernel (they can never take part).
  bool any_exited(int warp) const { return warps_[warp].exited != 0; }
  std::vector<int> exited_lanes(int warp) const;
  // Lanes already waiting in this warp at another operation, or another line.
  Mismatch check(int thread, WarpOp op, LineId line) const {
    const int w = thread / kWarpSize;
    const Rendezvous& r = warps_[w];
    if (r.arrived == 0 || (r.op == op && r.line == line)) return {};
    int other = w * kWarpSize;
    while (!(r.arrived & (1u << (other % kWarpSize)))) ++other;
    return {other, r.op, r.line};
  }

  // Lane `thread` takes part with its value and argument (source lane, delta, xor mask). True when it
  // was the warp's last lane: every lane's result() is then ready.
  bool arrive(int thread, WarpOp op, uint32_t bits, bool poison, int arg, LineId line) {
    const int w = thread / kWarpSize;
    const int lane = thread % kWarpSize;
    Rendezvous& r = warps_[w];
    if (r.arrived == 0) {
      r.op = op;
      r.line = line;
    }
    r.bits[lane] = bits;
    r.poison[lane] = poison ? 1 : 0;
    r.arg[lane] = arg;
    r.arrived |= 1u << lane;
    const int n = lanes(w);
    const uint32_t all = n == kWarpSize ? ~0u : (1u << n) - 1;
    if (r.arrived != all) return false;
    complete(w);
    return true;
  }

  const LaneResult& result(int thread) const { return results_[thread]; }
  // The lanes of `warp` the operation completed for (the runner wakes those that waited).
  int first_lane(int warp) const { return warp * kWarpSize; }
  int lanes(int warp) const { return std::min(kWarpSize, threads_per_block_ - warp * kWarpSize); }
  bool last_was_sync(int warp) const { return warps_[warp].completed == WarpOp::SyncWarp; }

 private:
  struct Rendezvous {
    WarpOp op = WarpOp::None;
    WarpOp completed = WarpOp::None;
    LineId line = kNoLine;
    uint32_t arrived = 0;  // lane mask
    uint32_t exited = 0;   // lanes that finished the kernel
    uint32_t bits[kWarpSize] = {};
    uint8_t poison[kWarpSize] = {};
    int32_t arg[kWarpSize] = {};
  };
  void complete(int warp);

  int threads_per_block_ = 0;
  std::vector<Rendezvous> warps_;
  std::vector<LaneResult> results_;
};

}  // namespace syncscope::sim
