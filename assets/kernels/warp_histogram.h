// A starter kernel file: a histogram with warp-aggregated atomics. Each thread makes a bin of the
// value it loaded (int(v) % 16: a loaded value turned into an index); match_any groups the lanes of
// its warp that have the same bin, and only the lowest lane of each group adds the group's size, so
// a warp of 32 equal values makes one atomic instead of 32. reduce_add counts the warp's elements,
// which the last cell of the output keeps as a check on the bins' total.
// Load it live:  syncscope run --kernel assets/kernels/warp_histogram.h --steps
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

#include <cmath>

namespace my_kernels {

using namespace syncscope;

inline constexpr int kHistogramBins = 16;

enum class WarpHistogramBug : int { None, PlainAdd, Count };
inline constexpr BugTable<WarpHistogramBug, 1> kWarpHistogramBugs{
    {{{WarpHistogramBug::PlainAdd, "plain-add",
       "group leaders add into the block's bins with a plain +=: leaders of two warps with the same bin read the "
       "same old count and one group is lost (a race; the remedy is the atomic)"}}}};
static_assert(kWarpHistogramBugs.complete(), "kWarpHistogramBugs lists every WarpHistogramBug but None, in order");

struct WarpHistogramKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array out, int n, WarpHistogramBug bug) const {
    using T = value_of<Array>;
    auto bins = shared_array<T, kHistogramBins + 1>(c, "bins");  // the block's counts, then its elements
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    const int lane = t % kWarpSize;

    c.caption("the block's bins start at zero");
    for (int b = t; b <= kHistogramBins; b += c.block_dim().x) bins[b] = T(0);
    c.sync();
    c.caption("lanes with the same bin meet (match_any); the lowest lane of each group adds its size");
    int bin = kHistogramBins;  // past the end: this lane has no element, and no bin
    if (i < n) bin = int(T(x[i])) % kHistogramBins;
    if (bin < 0) bin += kHistogramBins;
    const unsigned peers = c.match_any(bin);
    const bool leader = (peers & ((1u << lane) - 1)) == 0;
    if (leader && bin < kHistogramBins) {
      if (bug == WarpHistogramBug::PlainAdd) bins[bin] += T(popc(peers));
      else c.atomic_add(bins[bin], T(popc(peers)));
    }
    const int elements = c.reduce_add(i < n ? 1 : 0);  // the warp's elements, in every lane
    if (lane == 0) c.atomic_add(bins[kHistogramBins], T(elements));
    c.sync();
    c.caption("each block adds its bins and its count into the output with atomic_add");
    for (int b = t; b <= kHistogramBins; b += c.block_dim().x) c.atomic_add(out[b], T(bins[b]));
  }
};

struct WarpHistogram {
  static AlgoInfo info() {
    return {.name = "warp-histogram",
            .group = "histograms",
            .title = "Histogram with warp-aggregated atomics (kernel file)",
            .description = "A 16-bin histogram of the input's whole values: each lane's bin is int(x[i]) % 16; match_any groups "
                           "the lanes of a warp with the same bin and the group's lowest lane adds its size with one atomic; "
                           "reduce_add counts the warp's elements into a 17th cell, which must equal n.",
            .origin = "assets/kernels/warp_histogram.h (a starter kernel file)",
            .defaults = Problem{.n = 64, .rows = 1, .tpb = 64, .dtype = DType::Int32},
            .sources = {"assets/kernels/warp_histogram.h"},
            .bugs = kWarpHistogramBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto out = rt.alloc_zeroed("histogram", kHistogramBins + 1);  // atomics add into it: it must start at 0
    rt.launch("warp_histogram", WarpHistogramKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb},
              shared_bytes_for(kHistogramBins + 1), rt.input(), out, p.n, kWarpHistogramBugs.of(p));
    rt.set_output(out, kHistogramBins + 1);
  }
  // Counted one element after another, with C++'s truncation and remainder as the kernel's.
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    std::vector<double> out(kHistogramBins + 1, 0.0);
    for (int i = 0; i < p.n; ++i) {
      int bin = static_cast<int>(std::trunc(input[i])) % kHistogramBins;
      if (bin < 0) bin += kHistogramBins;
      out[bin] += 1;
    }
    out[kHistogramBins] = p.n;
    return out;
  }
};

}  // namespace my_kernels

SYNCSCOPE_KERNEL_FILE(my_kernels::WarpHistogram)
