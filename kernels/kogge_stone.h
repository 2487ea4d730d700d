// Kogge-Stone inclusive scan of each block's section (seeds 002 and 003).
//
// Every step has a read phase and a write phase separated by a barrier: all threads first read the
// partner value `offset` cells to their left, wait, and only then add it to their own cell. Without
// that barrier a thread could overwrite a cell its right-hand neighbour has not read yet.
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/reference.h"

namespace syncscope::kernels {

// The race-condition lab's variants (syncscope run kogge-stone --bug NAME).
enum class KoggeStoneBug : int { None, NoSecondBarrier, NoFirstBarrier, InPlace, Count };
inline constexpr BugTable<KoggeStoneBug, 3> kKoggeStoneBugs{
    {{{KoggeStoneBug::NoSecondBarrier, "no-second-barrier",
       "read and write of one step overlap: a thread overwrites a cell its neighbour has not read yet (WAR)"},
      {KoggeStoneBug::NoFirstBarrier, "no-first-barrier",
       "reads see the previous step half-written, the first ones even the load (RAW)"},
      {KoggeStoneBug::InPlace, "in-place",
       "s[t] += s[t - offset] with one barrier per step, as a public puzzle solution once shipped"}}}};
static_assert(kKoggeStoneBugs.complete(), "kKoggeStoneBugs lists every KoggeStoneBug but None, in order");

// Scans s[0 .. blockDim.x) in place. All threads of the block must call it (it has barriers).
template <class Ctx, class Shared>
SYNCSCOPE_DEVICE void kogge_stone_scan_in_shared(Ctx& c, Shared s, KoggeStoneBug bug = KoggeStoneBug::None) {
  using T = value_of<Shared>;
  const int t = c.thread_idx().x;
  for (int offset = 1; offset < c.block_dim().x; offset *= 2) {
    if (bug == KoggeStoneBug::InPlace) {  // the shortcut: read and add in one statement, one barrier
      c.caption("offset %d: every thread t >= %d adds s[t - %d] into s[t], read and write in one statement",
                offset, offset, offset);
      if (t >= offset) s[t] += s[t - offset];
      c.sync();
      continue;
    }
    c.caption("offset %d, read phase: every thread t >= %d reads its partner s[t - %d]", offset, offset, offset);
    T partner = T(0);
    if (t >= offset) partner = s[t - offset];  // read phase
    if (bug != KoggeStoneBug::NoSecondBarrier) c.sync();  // every read done before any write
    c.caption("offset %d, write phase: every thread t >= %d adds its partner, s[t] += partner", offset, offset);
    if (t >= offset) s[t] += partner;  // write phase
    if (bug != KoggeStoneBug::NoFirstBarrier) c.sync();  // every write done before the next reads
  }
}

// Loads this block's section of x into shared memory (zeros past the end), scans it, stores it
// to y and returns the shared array (its last cell holds the block's total).
template <class Ctx, class Array>
SYNCSCOPE_DEVICE auto kogge_stone_scan_block(Ctx& c, Array x, Array y, int n, KoggeStoneBug bug = KoggeStoneBug::None) {
  using T = value_of<Array>;
  auto shared = shared_array<T>(c, c.block_dim().x, "shared");
  const int t = c.thread_idx().x;
  const int i = c.block_idx().x * c.block_dim().x + t;

  c.caption("load: thread t copies its element x[i] into shared[t] (0 past the end)");
  shared[t] = i < n ? T(x[i]) : T(0);
  if (bug != KoggeStoneBug::NoFirstBarrier) c.sync();  // the load is complete before the first reads
  kogge_stone_scan_in_shared(c, shared, bug);
  c.caption("store: thread t writes its prefix sum shared[t] to y[i]");
  if (i < n) y[i] = shared[t];
  return shared;
}

struct KoggeStoneScanKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n, KoggeStoneBug bug) const {
    kogge_stone_scan_block(c, x, y, n, bug);
  }
};

struct KoggeStone {
  static AlgoInfo info() {
    return {"kogge-stone", "scans", "Kogge-Stone block scan",
            "Inclusive prefix sum of each block's section with the Kogge-Stone pattern: log2(TPB) steps, "
            "each a read phase and a write phase separated by a barrier. Sections longer than one block are "
            "scanned independently (seed 002's 'partial sums per block').",
            "seeds 002 (CUDA Kogge-Stone) and 003 (prefix sum, simple version)",
            Problem{8, 1, 8, DType::Float32}, false, {"kernels/kogge_stone.h"},
            kKoggeStoneBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto x = rt.input();
    auto y = rt.alloc("output", p.n);
    rt.launch("Kogge_Stone_scan_kernel", KoggeStoneScanKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb},
              shared_bytes_for(p.tpb), x, y, p.n, kKoggeStoneBugs.of(p));
    rt.set_output(y, p.n);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::inclusive_scan(p.dtype, input, p.tpb);
  }
};

}  // namespace syncscope::kernels
