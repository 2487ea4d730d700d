// Warp-wide operations (shuffles, votes, __syncwarp()). Lanes arrive one at a time, in whatever
// order the schedule runs them; when the last lane the operation's mask names arrives, every lane's
// result is known at once, as on a GPU where the lanes execute the instruction together. The unit
// only keeps the rendezvous and computes results: parking lanes, and stopping the block when lanes
// cannot meet, is the runner's.
//
// A mask names the lanes that take part (CUDA's `__shfl_sync(mask, ...)`); the calls without one
// take every lane of the warp that the block has. Lanes of one warp may wait at different
// operations at once when their masks do not overlap (two halves of a warp, each shuffling alone).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/events.h"
#include "sim/hazards.h"
#include "sim/limits.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

// What one lane brings to a warp operation.
struct WarpCall {
  WarpOp op = WarpOp::None;
  uint32_t bits = 0;      // the value (shuffles) or the predicate, 0 or 1 (votes)
  bool poison = false;
  int arg = 0;            // shuffles: source lane, delta or lane mask
  bool masked = false;    // an explicit mask was given (the *_sync forms)
  uint32_t mask = 0;      // with `masked`: the lanes that take part
  int width = kWarpSize;  // shuffles: the segment width (a power of two, 1..32)
};

class WarpUnit {
 public:
  // What a warp operation delivered to one lane.
  struct LaneResult {
    uint32_t bits = 0;
    bool poison = false;
    int source = 0;    // shuffles: the lane it came from
    bool own = false;  // the source lane was outside the segment: the lane kept its own value
  };
  // What happened when a lane arrived.
  struct Arrival {
    bool completed = false;   // it was the last lane: results are ready for `lanes`
    uint32_t lanes = 0;       // with completed: the lanes (bit per lane) the operation finished for
    int other_thread = -1;    // >= 0: a lane waiting at another operation that this one needed (or that needed it)
    WarpOp other_op = WarpOp::None;
    LineId other_line = kNoLine;
  };

  void start_block(int threads_per_block);
  void lane_exited(int thread) { warps_[thread / kWarpSize].exited |= 1u << (thread % kWarpSize); }
  uint32_t exited_mask(int warp) const { return warps_[warp].exited; }
  // Every lane of `warp` that the block has (the last warp may be partial).
  uint32_t full_mask(int warp) const {
    const int n = lanes(warp);
    return n == kWarpSize ? ~0u : (1u << n) - 1;
  }
  // The lanes `call` waits for, as a bit mask within the warp.
  uint32_t mask_of(int warp, const WarpCall& call) const { return call.masked ? call.mask : full_mask(warp); }

  // Lane `thread` takes part in `call` at `line`; the mask has been checked (it names the lane, and
  // only lanes the block has that have not exited).
  Arrival arrive(int thread, const WarpCall& call, LineId line);

  const LaneResult& result(int thread) const { return results_[thread]; }
  int first_lane(int warp) const { return warp * kWarpSize; }
  int lanes(int warp) const { return std::min(kWarpSize, threads_per_block_ - warp * kWarpSize); }
  // A masked call's mask must name the calling lane and only lanes that can still arrive: the first
  // problem of thread `t`'s mask, with the thread it names (-1: the caller itself; LaneNotInBlock:
  // the lane of the warp, which no thread of the block is).
  struct MaskViolation {
    MaskProblem problem;
    int thread = -1;
  };
  std::optional<MaskViolation> check_mask(int t, uint32_t mask) const {
    const int w = t / kWarpSize;
    if (!(mask & (1u << (t % kWarpSize)))) return MaskViolation{MaskProblem::CallerNotInMask, -1};
    if (const uint32_t absent = mask & ~full_mask(w))
      return MaskViolation{MaskProblem::LaneNotInBlock, std::countr_zero(absent)};
    if (const uint32_t gone = mask & exited_mask(w))
      return MaskViolation{MaskProblem::LaneExited, w * kWarpSize + std::countr_zero(gone)};
    return std::nullopt;
  }
  // The operation lane `thread` waits at: its mask, who arrived, and whether the mask was explicit.
  struct Waiting {
    uint32_t mask = 0;
    uint32_t arrived = 0;
    bool masked = false;
  };
  Waiting waiting(int thread) const;

 private:
  struct Group {
    WarpOp op = WarpOp::None;
    LineId line = kNoLine;
    uint32_t mask = 0;
    bool masked = false;
    int width = kWarpSize;
    uint32_t arrived = 0;
  };
  struct Warp {
    uint32_t exited = 0;
    std::vector<Group> pending;  // operations some lanes wait at; their masks do not overlap
    uint32_t bits[kWarpSize] = {};
    uint8_t poison[kWarpSize] = {};
    int32_t arg[kWarpSize] = {};
  };
  void complete(int warp, const Group& g);

  int threads_per_block_ = 0;
  std::vector<Warp> warps_;
  std::vector<LaneResult> results_;
};

// Where lane `lane` of a shuffle reads from, by PTX's rule for shfl.sync (mode, b, c): `width`
// splits the warp into segments; a source outside the lane's segment leaves the lane its own value.
struct ShuffleSource {
  int lane = 0;
  bool own = false;
};
ShuffleSource shuffle_source(WarpOp op, int lane, int arg, int width);

}  // namespace syncscope::sim
