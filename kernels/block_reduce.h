// Sum of each block's section: a tree reduction in shared memory whose last 32-wide steps run in a
// single warp without block barriers, only __syncwarp() between them (Harris' "reduction #5",
// unrolling the last warp). This file is also the worked example in kernels/README.md of adding
// your own kernel.
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/reference.h"

namespace syncscope::kernels {

enum class BlockReduceBug : int { None, WarpUnrolledNoSync, Count };
inline constexpr BugTable<BlockReduceBug, 1> kBlockReduceBugs{
    {{{BlockReduceBug::WarpUnrolledNoSync, "warp-unrolled-no-sync",
       "the last warp unrolled without __syncwarp() (or volatile): reduction #5's trap since independent thread "
       "scheduling"}}}};
static_assert(kBlockReduceBugs.complete(), "kBlockReduceBugs lists every BlockReduceBug but None, in order");

struct BlockReduceKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array block_sums, int n, BlockReduceBug bug) const {
    using T = value_of<Array>;
    auto partial = shared_array<T>(c, c.block_dim().x, "partial");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;

    c.caption("load: thread t copies its element into partial[t] (0 past the end)");
    partial[t] = i < n ? T(x[i]) : T(0);
    c.sync();
    for (int stride = c.block_dim().x / 2; stride > kWarpSize; stride /= 2) {
      c.caption("stride %d: threads t < %d add partial[t + %d] into partial[t]", stride, stride, stride);
      if (t < stride) partial[t] += partial[t + stride];
      c.sync();
    }
    // The last warp finishes alone. Its lanes still need __syncwarp() between steps: without it
    // nothing orders one lane's write before another lane's read.
    c.caption("the last warp finishes alone, halving the stride with __syncwarp() between steps");
    if (t < kWarpSize) {
      for (int stride = c.block_dim().x < 2 * kWarpSize ? c.block_dim().x / 2 : kWarpSize; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        if (bug != BlockReduceBug::WarpUnrolledNoSync) c.sync_warp();  // "a warp is in lockstep" is not a guarantee
      }
    }
    if (t == 0) block_sums[c.block_idx().x] = partial[0];
  }
};

struct BlockReduce {
  static AlgoInfo info() {
    return {"block-reduce", "reductions", "Block sum reduction, last warp unrolled",
            "Sum of each block's section: halving-stride tree reduction with a barrier per step while more "
            "than a warp is busy, then the last warp alone with __syncwarp() between steps.",
            "the classic CUDA reduction #5 (Harris, 'Optimizing Parallel Reduction in CUDA')",
            Problem{64, 1, 64, DType::Int32}, false, {"kernels/block_reduce.h"},
            kBlockReduceBugs.infos()};
  }
  static CheckResult check(const Problem& p) {
    if (p.tpb & (p.tpb - 1))
      return ProblemError{ProblemField::Tpb,
                          "block-reduce halves the block at every step, so --tpb must be a power of two (1, 2, 4, "
                          "..., 1024)"};
    return {};
  }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const int blocks = ceil_div(p.n, p.tpb);
    auto x = rt.input();
    auto sums = rt.alloc("block_sums", blocks);
    rt.launch("block_reduce", BlockReduceKernel{}, Dim3{blocks}, Dim3{p.tpb}, shared_bytes_for(p.tpb), x, sums, p.n,
              kBlockReduceBugs.of(p));
    rt.set_output(sums, blocks);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.tpb);
  }
};

}  // namespace syncscope::kernels
