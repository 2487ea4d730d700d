// A starter kernel file: the sum of the whole input in one launch, with atomics.
// Load it live:  syncscope run --kernel assets/kernels/atomic_reduce.h --steps
// Each warp adds its 32 values with shuffles (no shared memory, no barrier), lane 0 of each warp
// adds its warp's sum into the block's total with atomic_add, and thread 0 adds the block's total
// into the result with atomic_add: no second launch to add up per-block sums.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

namespace my_kernels {

using namespace syncscope;

enum class AtomicReduceBug : int { None, PlainAdd, Count };
inline constexpr BugTable<AtomicReduceBug, 1> kAtomicReduceBugs{
    {{{AtomicReduceBug::PlainAdd, "plain-add",
       "warp leaders add into block_total with a plain +=: two warps read the same old total and one sum is lost "
       "(a race)"}}}};
static_assert(kAtomicReduceBugs.complete(), "kAtomicReduceBugs lists every AtomicReduceBug but None, in order");

struct AtomicReduceKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array total, int n, AtomicReduceBug bug) const {
    using T = value_of<Array>;
    auto block_total = shared_array<T, 1>(c, "block_total");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    const int lane = t % kWarpSize;
    // The lanes this thread's warp has (the block's last warp may be partial): the shuffles' mask.
    const int lanes = c.block_dim().x - (t - lane) < kWarpSize ? c.block_dim().x - (t - lane) : kWarpSize;
    const unsigned mask = lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1;

    c.caption("thread 0 zeroes block_total; each warp adds its values with shuffles");
    if (t == 0) block_total[0] = T(0);
    T v = i < n ? T(x[i]) : T(0);
    for (int d = kWarpSize / 2; d >= 1; d /= 2) {
      // A lane past the warp's end gives an undefined value: read it, but do not add it.
      const T other = c.shfl_down_sync(mask, v, d);
      if (lane + d < lanes) v += other;
    }
    c.sync();
    c.caption("lane 0 of each warp adds its warp's sum into block_total with atomic_add");
    if (lane == 0) {
      if (bug == AtomicReduceBug::PlainAdd) block_total[0] += v;
      else c.atomic_add(block_total[0], v);
    }
    c.sync();
    c.caption("thread 0 adds the block's sum into total[0] with atomic_add: every block, one launch");
    if (t == 0) c.atomic_add(total[0], block_total[0]);
  }
};

struct AtomicReduce {
  static AlgoInfo info() {
    return {.name = "atomic-reduce",
            .group = "reductions",
            .title = "Sum with warp shuffles and atomics (kernel file)",
            .description = "The whole input's sum in one launch: each warp reduces with shfl_down_sync, warp leaders atomic_add "
                           "into a shared total, and each block's thread 0 atomic_adds that into the result. The blocks' order "
                           "of arrival differs run to run; with integers (or floats whose sums are exact) the result does not.",
            .origin = "assets/kernels/atomic_reduce.h (a starter kernel file)",
            .defaults = Problem{.n = 64, .rows = 1, .tpb = 64, .dtype = DType::Int32},
            .sources = {"assets/kernels/atomic_reduce.h"},
            .bugs = kAtomicReduceBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto total = rt.alloc_zeroed("total", 1);  // atomics add into it: it must start at 0
    rt.launch("atomic_reduce", AtomicReduceKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb},
              shared_bytes_for(1), rt.input(), total, p.n, kAtomicReduceBugs.of(p));
    rt.set_output(total, 1);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.n > 0 ? p.n : 1);
  }
};

}  // namespace my_kernels

SYNCSCOPE_KERNEL_FILE(my_kernels::AtomicReduce)
