// Block-wide exclusive prefix sum from warp shuffles (seed 004, "block exclusive sum").
//
//   1. each warp scans its 32 values with shuffles (no shared memory, no barrier)
//   2. lane 0 of every warp writes the warp's total to shared memory
//   3. warp 0 scans the totals, giving each warp its offset
//   4. every thread adds its warp's offset to its own result
// Shuffles only reach lanes of the same warp; shared memory and barriers connect the warps.
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/reference.h"
#include "kernels/warp_primitives.h"

namespace syncscope::kernels {

enum class BlockExclusiveSumBug : int { None, NoSyncBeforeOffsets, Count };
inline constexpr BugTable<BlockExclusiveSumBug, 1> kBlockExclusiveSumBugs{
    {{{BlockExclusiveSumBug::NoSyncBeforeOffsets, "no-sync-before-offsets",
       "warp 0 reads the warp totals before all warps stored them"}}}};
static_assert(kBlockExclusiveSumBugs.complete(), "kBlockExclusiveSumBugs lists every BlockExclusiveSumBug but None, in order");

struct BlockExclusiveSumKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array input_data, Array output_data, int n, BlockExclusiveSumBug bug) const {
    using T = value_of<Array>;
    auto warp_totals = shared_array<T, kWarpSize>(c, "warp_totals");  // one per warp: at most 32
    const int t = c.thread_idx().x;
    const int lane = t % kWarpSize;
    const int warp = t / kWarpSize;
    const int num_warps = (c.block_dim().x + kWarpSize - 1) / kWarpSize;
    const int last_lane = (warp == num_warps - 1 ? c.block_dim().x - warp * kWarpSize : kWarpSize) - 1;
    const int i = c.block_idx().x * c.block_dim().x + t;

    c.caption("each warp scans its 32 values with shfl_up (5 rounds, and a 6th that shifts them to exclusive); lane 0 "
              "stores the warp's total");
    // 1. local scan within the warp
    T original = i < n ? T(input_data[i]) : T(0);
    T local_scan = warp_exclusive_sum(c, original);

    // 2. warp totals -> shared memory
    T last_scan = c.shfl_idx(local_scan, last_lane);
    T last_value = c.shfl_idx(original, last_lane);
    if (lane == 0) warp_totals[warp] = last_scan + last_value;
    if (bug != BlockExclusiveSumBug::NoSyncBeforeOffsets) c.sync();  // every warp's total is stored

    c.caption("warp 0 scans the warp totals into each warp's offset");
    // 3. warp 0 scans the totals
    if (warp == 0) {
      T total = lane < num_warps ? T(warp_totals[lane]) : T(0);
      T offset = warp_exclusive_sum(c, total);
      if (lane < num_warps) warp_totals[lane] = offset;
    }
    c.sync();

    c.caption("every thread adds its warp's offset to its own scan and stores it");
    // 4. apply the warp's offset
    if (i < n) output_data[i] = local_scan + warp_totals[warp];
  }
};

struct BlockExclusiveSum {
  static AlgoInfo info() {
    return {"block-exclusive-sum", "scans", "Block exclusive sum with warp shuffles",
            "Exclusive prefix sum of each block's section: warps scan with shuffles, lane 0 of each warp "
            "stores the warp total in shared memory, warp 0 scans the totals, every thread adds its warp's "
            "offset.",
            "seed 004 (block exclusive sum with plane intrinsics)", Problem{64, 1, 64, DType::Int32}, false,
            {"kernels/block_exclusive_sum.h", "kernels/warp_primitives.h"},
            kBlockExclusiveSumBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto input = rt.input();
    auto output = rt.alloc("output", p.n);
    rt.launch("kernel_block_exclusive_sum", BlockExclusiveSumKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb},
              shared_bytes_for(kWarpSize), input, output, p.n, kBlockExclusiveSumBugs.of(p));
    rt.set_output(output, p.n);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::exclusive_scan(p.dtype, input, p.tpb);
  }
};

}  // namespace syncscope::kernels
