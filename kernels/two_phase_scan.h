// Two-phase prefix sum over several blocks (seed 000, "complete version").
//
// Phase 1 scans each block's section and lets the block's last thread store the block's total after
// the data, in an extended buffer of n + blocks elements. Phase 2, a second launch, adds to each
// element the totals of all preceding blocks. Blocks cannot wait for each other inside one launch;
// the boundary between the two launches is the only grid-wide barrier.
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/kogge_stone.h"
#include "kernels/reference.h"

namespace syncscope::kernels {

enum class TwoPhaseBug : int { None, SingleKernel, Count };
inline constexpr BugTable<TwoPhaseBug, 1> kTwoPhaseBugs{
    {{{TwoPhaseBug::SingleKernel, "single-kernel",
       "block totals read in the same launch that writes them: a race between blocks on global memory"}}}};
static_assert(kTwoPhaseBugs.complete(), "kTwoPhaseBugs lists every TwoPhaseBug but None, in order");

// Phase 2's work: add the totals of all preceding blocks (stored after the data) to this block's
// elements. One thread adds them up (the seed, with two blocks, only needs block 0's) and shares
// the sum with the block.
template <class Ctx, class Array>
SYNCSCOPE_DEVICE void add_preceding_block_totals(Ctx& c, Array output, int size) {
  using T = value_of<Array>;
  auto preceding = shared_array<T>(c, 1, "preceding");
  const int local_i = c.thread_idx().x;
  const int global_i = c.block_idx().x * c.block_dim().x + local_i;
  c.caption("thread 0 adds up the totals of the blocks before this one (stored after the data)");
  if (local_i == 0) {
    T sum = T(0);
    for (int b = 0; b < c.block_idx().x; ++b) sum += output[size + b];
    preceding[0] = sum;
  }
  c.sync();
  c.caption("every thread adds that sum to its element");
  if (c.block_idx().x > 0 && global_i < size) output[global_i] += preceding[0];
}

struct PrefixSumLocalPhase {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array a, Array output, int size, TwoPhaseBug bug) const {
    using T = value_of<Array>;
    auto shared = shared_array<T>(c, c.block_dim().x, "shared");
    const int local_i = c.thread_idx().x;
    const int global_i = c.block_idx().x * c.block_dim().x + local_i;

    // Threads past the end load nothing: their cell stays uninitialized, as in the seed.
    c.caption("load: thread t copies its element into shared[t] (threads past the end load nothing)");
    if (global_i < size) shared[local_i] = a[global_i];
    c.sync();
    kogge_stone_scan_in_shared(c, shared);
    c.caption("store: each thread writes its prefix sum; the last thread writes the block's total after the data");
    if (global_i < size) output[global_i] = shared[local_i];
    // The block's total goes after the data: output[size + block].
    if (local_i == c.block_dim().x - 1) output[size + c.block_idx().x] = shared[local_i];
    // The shortcut: do phase 2 in this launch too. Nothing makes the other blocks' totals be there
    // yet: blocks of one launch cannot wait for each other.
    if (bug == TwoPhaseBug::SingleKernel) add_preceding_block_totals(c, output, size);
  }
};

struct PrefixSumBlockSumPhase {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array output, int size) const {
    add_preceding_block_totals(c, output, size);
  }
};

struct TwoPhaseScan {
  static constexpr int kMaxBlocks = 1024;  // phase 2 sums preceding totals one by one

  static AlgoInfo info() {
    return {"two-phase-scan", "scans", "Two-phase multi-block scan",
            "Prefix sum over several blocks in two launches: each block scans its section and stores its "
            "total after the data (extended buffer), then a second launch adds the totals of all preceding "
            "blocks. Shows why blocks need a kernel boundary to share results.",
            "seed 000 (prefix sum, complete version)", Problem{15, 1, 8, DType::Float32}, false,
            {"kernels/two_phase_scan.h", "kernels/kogge_stone.h"},
            kTwoPhaseBugs.infos()};
  }
  static CheckResult check(const Problem& p) {
    const int blocks = ceil_div(p.n, p.tpb);
    if (blocks > kMaxBlocks)
      return ProblemError{ProblemField::N,
                          "--n " + std::to_string(p.n) + " at --tpb " + std::to_string(p.tpb) + " needs " +
                              std::to_string(blocks) + " blocks; two-phase-scan handles at most " +
                              std::to_string(kMaxBlocks) + " (use hierarchical-scan for more)",
                          /*names_options=*/true};
    return {};
  }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const int blocks = ceil_div(p.n, p.tpb);
    auto a = rt.input();
    auto output = rt.alloc("output", p.n + blocks);  // data, then one total per block
    const auto bug = kTwoPhaseBugs.of(p);
    if (bug == TwoPhaseBug::SingleKernel) {
      rt.launch("prefix_sum_single_kernel", PrefixSumLocalPhase{}, Dim3{blocks}, Dim3{p.tpb},
                shared_bytes_for(p.tpb, 1), a, output, p.n, bug);
    } else {
      rt.launch("prefix_sum_local_phase", PrefixSumLocalPhase{}, Dim3{blocks}, Dim3{p.tpb},
                shared_bytes_for(p.tpb), a, output, p.n, bug);
      rt.launch("prefix_sum_block_sum_phase", PrefixSumBlockSumPhase{}, Dim3{blocks}, Dim3{p.tpb},
                shared_bytes_for(1), output, p.n);
    }
    rt.set_output(output, p.n);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::inclusive_scan(p.dtype, input, 0);
  }
};

}  // namespace syncscope::kernels
