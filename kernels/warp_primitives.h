// Building blocks the faster rungs of the performance ladders share (kernels/reduce_ladder.h,
// kernels/scan_ladder.h): sums and scans done inside a warp with shuffles, so values move lane to
// lane in registers instead of through shared memory and barriers.
#pragma once

#include <string>
#include <type_traits>

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"

namespace syncscope::kernels {

// The check of an algorithm built from these (host code): they need whole warps.
inline CheckResult whole_warps_check(const Problem& p) {
  if (p.tpb < kWarpSize || p.tpb > 1024 || p.tpb % kWarpSize)
    return ProblemError{ProblemField::Tpb, "this rung needs whole warps, a multiple of 32 from 32 to 1024"};
  return {};
}

// A whole number a kernel keeps in an element-typed cell (a ticket, a tile number) as an int.
template <class T>
SYNCSCOPE_DEVICE int whole_number(T v) {
  if constexpr (std::is_arithmetic_v<T>) return static_cast<int>(v);
  else return static_cast<int>(static_cast<typename T::scalar_type>(v));
}

// Lane 0 gets the sum of the warp's 32 values (the others partial sums): five shuffles down.
// The block must have whole warps.
template <class Ctx, class T>
SYNCSCOPE_DEVICE T warp_sum(Ctx& c, T v) {
  for (int delta = kWarpSize / 2; delta > 0; delta /= 2) v += c.shfl_down(v, delta);
  return v;
}

// Each lane gets the sum of its own and every lower lane's value (inclusive) and of the lower
// lanes' only (exclusive): Kogge-Stone inside a warp, no barrier, since a shuffle reads every
// lane's value before any lane replaces it. Every lane of the warp must call it.
template <class T>
struct WarpScan {
  T inclusive;
  T exclusive;
};
template <class Ctx, class T>
SYNCSCOPE_DEVICE WarpScan<T> warp_scan(Ctx& c, T value) {
  const int lane = c.thread_idx().x % kWarpSize;
  T inclusive = value;
  for (int delta = 1; delta < kWarpSize; delta *= 2) {
    T from_below = c.shfl_up(inclusive, delta);
    if (lane >= delta) inclusive += from_below;
  }
  T exclusive = c.shfl_up(inclusive, 1);
  return {inclusive, lane == 0 ? T(0) : exclusive};
}

// Exclusive prefix sum across the lanes of a warp (seed 004's warp step).
template <class Ctx, class T>
SYNCSCOPE_DEVICE T warp_exclusive_sum(Ctx& c, T value) {
  return warp_scan(c, value).exclusive;
}

// Thread 0 gets the block's sum: every warp sums with shuffles, lane 0 of each puts its warp's
// sum into warp_sums (32 cells), and the first warp sums those. One barrier.
template <class Ctx, class T, class Shared>
SYNCSCOPE_DEVICE T block_sum(Ctx& c, T v, Shared warp_sums) {
  const int t = c.thread_idx().x;
  const int lane = t % kWarpSize, warp = t / kWarpSize, warps = c.block_dim().x / kWarpSize;
  v = warp_sum(c, v);
  if (lane == 0) warp_sums[warp] = v;
  c.sync();
  T total = T(0);
  if (warp == 0) {
    if (lane < warps) total = warp_sums[lane];
    total = warp_sum(c, total);
  }
  return total;
}

// Called by the first warp once every warp's total is in warp_sums: scans them in place (warp_sums[w]
// becomes the sum of warps 0..w) and returns this lane's entry, so lane warps-1 holds the block's total.
template <class T, class Ctx, class Shared>
SYNCSCOPE_DEVICE T scan_warp_sums_in_first_warp(Ctx& c, Shared warp_sums) {
  const int lane = c.thread_idx().x % kWarpSize, warps = c.block_dim().x / kWarpSize;
  const T through_lane = warp_scan(c, lane < warps ? T(warp_sums[lane]) : T(0)).inclusive;
  if (lane < warps) warp_sums[lane] = through_lane;
  return through_lane;
}

// Each warp brings one total (every lane holds it); every thread gets the sum of the warps before
// its own, and the block's total: the first warp scans the totals with shuffles. Two barriers;
// warp_sums holds 32 cells and may be written again only after another barrier.
template <class T>
struct WarpTotalsScan {
  T before;  // the warps before this thread's
  T total;   // the whole block
};
template <class Ctx, class T, class Shared>
SYNCSCOPE_DEVICE WarpTotalsScan<T> scan_warp_totals(Ctx& c, T warp_total, Shared warp_sums) {
  const int t = c.thread_idx().x;
  const int lane = t % kWarpSize, warp = t / kWarpSize, warps = c.block_dim().x / kWarpSize;
  if (lane == 0) warp_sums[warp] = warp_total;
  c.sync();
  c.caption("the first warp scans the warp totals in warp_sums with shuffles");
  if (warp == 0) scan_warp_sums_in_first_warp<T>(c, warp_sums);
  c.sync();
  c.caption("every thread reads the total of the warps before its own, and the block's, from warp_sums");
  const T before = warp > 0 ? T(warp_sums[warp - 1]) : T(0);
  const T total = warp_sums[warps - 1];
  return {before, total};
}

}  // namespace syncscope::kernels
