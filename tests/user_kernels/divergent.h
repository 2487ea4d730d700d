// Held-out kernels for validating SIMT lockstep against a GPU: in each bug variant the lanes of a
// warp take different paths inside one barrier interval (`if (t < d)` in a loop whose barrier is
// missing), which is exactly where "lanes advance one access at a time" and a real warp disagree.
// They are not shipped algorithms; tests/test_simt_fidelity.cpp runs them on the GPU, 200 times a
// cell, and compares the majority verdict with lockstep's.
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/reference.h"

namespace syncscope::user {

inline CheckResult power_of_two_tpb(const std::string& algorithm, const Problem& p) {
  if (p.tpb & (p.tpb - 1))
    return ProblemError{ProblemField::Tpb,
                        algorithm + " halves the block at every step, so --tpb must be a power of two (1, 2, 4, ..., 1024)"};
  return {};
}

// Work-efficient (Blelloch) exclusive scan of 2·blockDim elements per block (GPU Gems 3, ch. 39):
// an up-sweep builds partial sums in a tree, the root is cleared, a down-sweep pushes prefixes back.
enum class BlellochBug : int { None, NoDownSweepBarrier, Count };
inline constexpr BugTable<BlellochBug, 1> kBlellochBugs{
    {{{BlellochBug::NoDownSweepBarrier, "no-down-sweep-barrier",
       "the down-sweep without its barrier: lanes that skip a level run into the next"}}}};
static_assert(kBlellochBugs.complete(), "kBlellochBugs lists every BlellochBug but None, in order");

struct BlellochScanKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n, BlellochBug bug) const {
    using T = value_of<Array>;
    const int tpb = c.block_dim().x;
    const int m = 2 * tpb;
    auto s = shared_array<T>(c, m, "s");
    const int t = c.thread_idx().x;
    const int base = c.block_idx().x * m;
    s[2 * t] = base + 2 * t < n ? T(x[base + 2 * t]) : T(0);
    s[2 * t + 1] = base + 2 * t + 1 < n ? T(x[base + 2 * t + 1]) : T(0);
    int offset = 1;
    for (int d = tpb; d > 0; d /= 2) {  // up-sweep
      c.sync();
      if (t < d) {
        const int ai = offset * (2 * t + 1) - 1;
        const int bi = offset * (2 * t + 2) - 1;
        s[bi] += s[ai];
      }
      offset *= 2;
    }
    if (t == 0) s[m - 1] = T(0);
    for (int d = 1; d < m; d *= 2) {  // down-sweep
      offset /= 2;
      if (bug != BlellochBug::NoDownSweepBarrier) c.sync();
      if (t < d) {
        const int ai = offset * (2 * t + 1) - 1;
        const int bi = offset * (2 * t + 2) - 1;
        T left = s[ai];
        s[ai] = s[bi];
        s[bi] += left;
      }
    }
    c.sync();
    if (base + 2 * t < n) y[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n) y[base + 2 * t + 1] = s[2 * t + 1];
  }
};

struct BlellochScan {
  static AlgoInfo info() {
    return {"blelloch-scan", "scans", "Work-efficient (Blelloch) block scan",
            "Exclusive scan of 2·TPB elements per block: up-sweep, clear the root, down-sweep.", "tests/user_kernels",
            Problem{16, 1, 8, DType::Int32}, false, {"tests/user_kernels/divergent.h"},
            kBlellochBugs.infos()};
  }
  static CheckResult check(const Problem& p) { return power_of_two_tpb("blelloch-scan", p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    rt.launch("blelloch_scan", BlellochScanKernel{}, Dim3{ceil_div(p.n, 2 * p.tpb)}, Dim3{p.tpb},
              shared_bytes_for(2 * p.tpb), rt.input(), y, p.n, kBlellochBugs.of(p));
    rt.set_output(y, p.n);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::exclusive_scan(p.dtype, input, 2 * p.tpb);
  }
};

// Sum of each block's section by sequential addressing (Harris' reduction #3): the active threads
// are always the lowest ones, so whole warps drop out as the stride halves.
enum class ReduceBug : int { None, NoLoopBarrier, Count };
inline constexpr BugTable<ReduceBug, 1> kReduceBugs{
    {{{ReduceBug::NoLoopBarrier, "no-loop-barrier", "the reduction loop without its barrier"}}}};
static_assert(kReduceBugs.complete(), "kReduceBugs lists every ReduceBug but None, in order");

// Each thread loads its element of the block's section into shared memory (0 past the end).
template <class Ctx, class Array>
SYNCSCOPE_DEVICE auto load_section(Ctx& c, Array x, int n) {
  using T = value_of<Array>;
  auto s = shared_array<T>(c, c.block_dim().x, "s");
  const int t = c.thread_idx().x;
  const int i = c.block_idx().x * c.block_dim().x + t;
  s[t] = i < n ? T(x[i]) : T(0);
  c.sync();
  return s;
}

struct SequentialReduceKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array sums, int n, ReduceBug bug) const {
    auto s = load_section(c, x, n);
    const int t = c.thread_idx().x;
    for (int stride = c.block_dim().x / 2; stride > 0; stride /= 2) {
      if (t < stride) s[t] += s[t + stride];
      if (bug != ReduceBug::NoLoopBarrier) c.sync();
    }
    if (t == 0) sums[c.block_idx().x] = s[0];
  }
};

// The same sum by interleaved addressing (Harris' reduction #1): thread t adds when t is a multiple
// of 2·stride, so the active lanes are spread over every warp and thin out inside each.
struct InterleavedReduceKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array sums, int n, ReduceBug bug) const {
    auto s = load_section(c, x, n);
    const int t = c.thread_idx().x;
    for (int stride = 1; stride < c.block_dim().x; stride *= 2) {
      if (t % (2 * stride) == 0) s[t] += s[t + stride];
      if (bug != ReduceBug::NoLoopBarrier) c.sync();
    }
    if (t == 0) sums[c.block_idx().x] = s[0];
  }
};

// One block sum per TPB elements, whichever kernel adds them up.
template <class Kernel>
struct BlockSum {
  static AlgoInfo describe(std::string name, std::string title, std::string description) {
    return {name, "reductions", title, description, "tests/user_kernels", Problem{64, 1, 64, DType::Int32}, false,
            {"tests/user_kernels/divergent.h"}, kReduceBugs.infos()};
  }
  static CheckResult check(const Problem& p) { return power_of_two_tpb("this reduction", p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const int blocks = ceil_div(p.n, p.tpb);
    auto sums = rt.alloc("block_sums", blocks);
    rt.launch("block_sum", Kernel{}, Dim3{blocks}, Dim3{p.tpb}, shared_bytes_for(p.tpb), rt.input(), sums, p.n,
              kReduceBugs.of(p));
    rt.set_output(sums, blocks);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.tpb);
  }
};

struct SequentialReduce : BlockSum<SequentialReduceKernel> {
  static AlgoInfo info() {
    return describe("sequential-reduce", "Sequential-addressing block sum",
                    "Harris' reduction #3: the lowest `stride` threads add the upper half onto the lower.");
  }
};

struct InterleavedReduce : BlockSum<InterleavedReduceKernel> {
  static AlgoInfo info() {
    return describe("interleaved-reduce", "Interleaved-addressing block sum",
                    "Harris' reduction #1: thread t adds when t is a multiple of 2·stride.");
  }
};

}  // namespace syncscope::user
