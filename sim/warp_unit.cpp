#include "sim/warp_unit.h"

#include <algorithm>
#include <bit>

namespace syncscope::sim {

void WarpUnit::start_block(int threads_per_block) {
  threads_per_block_ = threads_per_block;
  const size_t warps = static_cast<size_t>((threads_per_block + kWarpSize - 1) / kWarpSize);
  warps_.resize(warps);
  for (Warp& w : warps_) {
    w.exited = 0;
    w.pending.clear();  // keeps its capacity: no allocation per block
  }
  if (static_cast<int>(results_.size()) < threads_per_block) results_.resize(threads_per_block);  // written before read
}

ShuffleSource shuffle_source(WarpOp op, int lane, int arg, int width) {
  // CUDA passes c = (32 - width) << 8, with 0x1f in the low bits for all but shfl_up; only b's low
  // five bits count.
  const int b = arg & (kWarpSize - 1);
  const int segment_start = lane & ~(width - 1);
  const int segment_last = segment_start + width - 1;
  int j = lane;
  bool in_range = true;
  switch (op) {
    case WarpOp::ShflUp:
      j = lane - b;
      in_range = j >= segment_start;
      break;
    case WarpOp::ShflDown:
      j = lane + b;
      in_range = j <= segment_last;
      break;
    case WarpOp::ShflXor:
      j = lane ^ b;
      in_range = j <= segment_last;
      break;
    case WarpOp::ShflIdx:
      j = segment_start | (b & (width - 1));
      in_range = j <= segment_last;
      break;
    default:
      break;
  }
  if (!in_range) return {lane, true};
  return {j, false};
}

WarpUnit::Arrival WarpUnit::arrive(int thread, const WarpCall& call, LineId line) {
  const int w = thread / kWarpSize;
  const int lane = thread % kWarpSize;
  const uint32_t me = 1u << lane;
  const uint32_t mask = mask_of(w, call);
  Warp& warp = warps_[w];
  Group* group = nullptr;
  for (Group& g : warp.pending) {
    if (g.op == call.op && g.line == line && g.mask == mask && !(g.arrived & me)) {
      group = &g;
      break;
    }
    // Another operation that expects this lane, or holds a lane this one expects: they cannot both
    // complete.
    if ((g.mask & me) || (g.arrived & mask)) {
      const int other = w * kWarpSize + std::countr_zero(g.arrived);
      return {false, 0, other, g.op, g.line};
    }
  }
  if (!group) {
    warp.pending.push_back({call.op, line, mask, call.masked, call.width, 0});
    group = &warp.pending.back();
  }
  warp.bits[lane] = call.bits;
  warp.poison[lane] = call.poison ? 1 : 0;
  warp.arg[lane] = call.arg;
  group->arrived |= me;
  if (group->arrived != group->mask) return {};
  const Group done = *group;
  warp.pending.erase(warp.pending.begin() + (group - warp.pending.data()));
  complete(w, done);
  return {true, done.mask, -1, WarpOp::None, kNoLine};
}

WarpUnit::Waiting WarpUnit::waiting(int thread) const {
  const uint32_t me = 1u << (thread % kWarpSize);
  for (const Group& g : warps_[thread / kWarpSize].pending)
    if (g.arrived & me) return {g.mask, g.arrived, g.masked};
  return {};
}

namespace {

// A reduction's operator on two lanes' bits, from its row of contract/warp_ops.h, on the lanes' type:
// `is_signed` for int (min and max compare it signed; the other operators give the same bits).
uint32_t combine(WarpOp op, uint32_t a, uint32_t b, bool is_signed) {
#define SYNCSCOPE_COMBINE(op, name, name_sync, intrinsic, kind, arg, result, gives) SYNCSCOPE_COMBINE_##kind(op, arg)
#define SYNCSCOPE_COMBINE_Reduce(op, arg) \
  case WarpOp::op:                        \
    return is_signed ? static_cast<uint32_t>(arg{}(static_cast<int32_t>(a), static_cast<int32_t>(b))) : arg{}(a, b);
#define SYNCSCOPE_COMBINE_Shuffle(op, arg)
#define SYNCSCOPE_COMBINE_Vote(op, arg)
#define SYNCSCOPE_COMBINE_Sync(op, arg)
#define SYNCSCOPE_COMBINE_Match(op, arg)
  switch (op) {
    SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_COMBINE)
    default: return a;
  }
}

}  // namespace

// What each lane gets, by the operation's row in contract/warp_ops.h: its kind says which operands
// it has; the cases below are each operation's meaning.
void WarpUnit::complete(int w, const Group& g) {
  Warp& warp = warps_[w];
  const int first = w * kWarpSize;
  // Collectives: one answer over every lane of the group (a reduction's fold only for reductions:
  // shuffles, the hot case, complete here too).
  const bool reduction = warp_op_info(g.op).kind == WarpKind::Reduce;
  uint32_t ballot = 0, reduced = 0;
  bool any_poison = false;
  for (uint32_t m = g.mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    if (warp.bits[lane]) ballot |= 1u << lane;
    // A reduction's arg: 1 when the lanes' type is signed (sim_ctx.h).
    if (reduction) reduced = m == g.mask ? warp.bits[lane] : combine(g.op, reduced, warp.bits[lane], warp.arg[lane] != 0);
    any_poison |= warp.poison[lane] != 0;
  }
  for (uint32_t m = g.mask; m; m &= m - 1) {
    const int lane = std::countr_zero(m);
    LaneResult& r = results_[first + lane];
    r = {0, false, lane, false};
    if (reduction) {
      r.bits = reduced, r.poison = any_poison;
      continue;
    }
    switch (g.op) {
      case WarpOp::ShflUp:
      case WarpOp::ShflDown:
      case WarpOp::ShflIdx:
      case WarpOp::ShflXor: {
        const ShuffleSource s = shuffle_source(g.op, lane, warp.arg[lane], g.width);
        // Reading a lane that does not take part gives an undefined value (CUDA: "If the target
        // thread is inactive, the retrieved value is undefined").
        const bool undefined = !(g.mask & (1u << s.lane));
        r = {undefined ? 0 : warp.bits[s.lane], undefined || warp.poison[s.lane] != 0, s.lane, s.own};
        break;
      }
      case WarpOp::Ballot: r.bits = ballot, r.poison = any_poison; break;
      case WarpOp::Any: r.bits = ballot != 0, r.poison = any_poison; break;
      case WarpOp::All: r.bits = ballot == g.mask, r.poison = any_poison; break;
      case WarpOp::MatchAny: {
        // The lanes whose value has the same bits as this lane's; unknown when any compared value is.
        for (uint32_t o = g.mask; o; o &= o - 1) {
          const int other = std::countr_zero(o);
          if (warp.bits[other] == warp.bits[lane]) r.bits |= 1u << other;
        }
        r.poison = any_poison;
        break;
      }
      default: break;  // __syncwarp delivers nothing; reductions are above
    }
  }
}

}  // namespace syncscope::sim
