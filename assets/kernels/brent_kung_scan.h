// A starter kernel file: Brent-Kung's work-efficient inclusive scan of each block's section.
// Load it live:  syncscope run --kernel assets/kernels/brent_kung_scan.h --steps
// An up-sweep builds partial sums in a tree (2(n-1) additions in all, against Kogge-Stone's
// n log n), a down-sweep spreads them back. Each level is one barrier interval.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

namespace my_kernels {

using namespace syncscope;

enum class BrentKungBug : int { None, NoDownSweepBarrier, Count };
inline constexpr BugTable<BrentKungBug, 1> kBrentKungBugs{
    {{{BrentKungBug::NoDownSweepBarrier, "no-down-sweep-barrier",
       "the down-sweep's levels overlap: a thread adds a partial sum another has not finished (RAW)"}}}};
static_assert(kBrentKungBugs.complete(), "kBrentKungBugs lists every BrentKungBug but None, in order");

struct BrentKungKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n, BrentKungBug bug) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    const int size = c.block_dim().x;

    c.caption("load: thread t copies x[i] into s[t] (0 past the end)");
    s[t] = i < n ? T(x[i]) : T(0);
    c.sync();
    // Up-sweep: at stride d, the thread owning each right end of a pair of 2d adds the left half.
    for (int d = 1; d < size; d *= 2) {
      c.caption("up-sweep, stride %d: s[k] += s[k - %d] for every k = %d*m - 1", d, d, 2 * d);
      const int k = (t + 1) * 2 * d - 1;
      if (k < size) s[k] += s[k - d];
      c.sync();
    }
    // Down-sweep: spread the partial sums to the cells between them, halving the stride.
    for (int d = size / 4; d >= 1; d /= 2) {
      c.caption("down-sweep, stride %d: s[k + %d] += s[k] for every k = %d*m - 1", d, d, 2 * d);
      const int k = (t + 1) * 2 * d - 1;
      if (k + d < size) s[k + d] += s[k];
      if (bug != BrentKungBug::NoDownSweepBarrier) c.sync();
    }
    c.sync();
    c.caption("store: thread t writes s[t] to y[i]");
    if (i < n) y[i] = s[t];
  }
};

struct BrentKungScan {
  static AlgoInfo info() {
    return {.name = "brent-kung-scan",
            .group = "scans",
            .title = "Brent-Kung work-efficient block scan (kernel file)",
            .description = "Inclusive scan of each block's section with an up-sweep and a down-sweep over a tree: "
                           "2(n-1) additions instead of Kogge-Stone's n log n, in 2 log n barrier intervals.",
            .origin = "assets/kernels/brent_kung_scan.h (a starter kernel file)",
            .defaults = Problem{.n = 16, .rows = 1, .tpb = 16, .dtype = DType::Int32},
            .sources = {"assets/kernels/brent_kung_scan.h"},
            .bugs = kBrentKungBugs.infos()};
  }
  static CheckResult check(const Problem& p) {
    if (p.tpb & (p.tpb - 1)) return ProblemError{ProblemField::Tpb, "the tree needs a power of two (1, 2, 4, ..., 1024)"};
    return {};
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    rt.launch("brent_kung_scan", BrentKungKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb}, shared_bytes_for(p.tpb),
              rt.input(), y, p.n, kBrentKungBugs.of(p));
    rt.set_output(y, p.n);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::inclusive_scan(p.dtype, input, p.tpb);
  }
};

}  // namespace my_kernels

SYNCSCOPE_KERNEL_FILE(my_kernels::BrentKungScan)
