// Sum of every row of a rows × size matrix (seed 001, "axis sum"): one block per row, selected by
// blockIdx.y, and a halving-stride tree reduction in shared memory.
//
// The guard matters: only threads below the stride add, and only cells that exist are read. (The
// seed's `if local_i < size` lets threads read past the end of the cache and race with each other;
// at the seed's TPB 8 it still prints the right sums on a GPU, because the stray reads stay inside
// the block's shared-memory allocation. Measured on an H100: from TPB 32 they leave it and the
// kernel dies with "an illegal memory access was encountered".)
#pragma once

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/reference.h"

namespace syncscope::kernels {

enum class AxisSumBug : int { None, AsWritten, NoBarrier, Count };
inline constexpr BugTable<AxisSumBug, 2> kAxisSumBugs{
    {{{AxisSumBug::AsWritten, "as-written",
       "seed 001's guard `local_i < size`: threads past the stride add too, reading past the end of the cache "
       "(cache[8] and cache[9] at the seed's TPB 8) and racing; there the sums still look right, on an H100 too. From "
       "TPB 32 the stray reads leave the block's shared memory and the GPU kernel faults"},
      {AxisSumBug::NoBarrier, "no-barrier", "the reduction without the barrier between strides"}}}};
static_assert(kAxisSumBugs.complete(), "kAxisSumBugs lists every AxisSumBug but None, in order");

struct AxisSumKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array a, Array out, int size, AxisSumBug bug) const {
    using T = value_of<Array>;
    auto cache = shared_array<T>(c, c.block_dim().x, "cache");
    const int local_i = c.thread_idx().x;
    const int batch = c.block_idx().y;  // this block's row

    // Rows longer than the block: each thread first adds up every blockDim.x-th element.
    c.caption("row %d: each thread adds up its elements of the row into cache[t]", batch);
    T sum = T(0);
    for (int k = local_i; k < size; k += c.block_dim().x) sum += a[batch * size + k];
    cache[local_i] = sum;
    c.sync();

    int stride = 1;
    while (stride * 2 < c.block_dim().x) stride *= 2;  // the largest power of two below blockDim.x
    for (; stride > 0; stride /= 2) {
      // Only threads below the stride add, and only cells that exist are read. The seed as written
      // guards with `local_i < size` instead: threads past the stride add too, reading past the
      // end of the cache and racing with the threads that read their cells.
      c.caption("stride %d: threads t < %d add cache[t + %d] into cache[t]", stride, stride, stride);
      const bool adds = bug == AxisSumBug::AsWritten ? local_i < size
                                                     : local_i < stride && local_i + stride < c.block_dim().x;
      if (adds) cache[local_i] += cache[local_i + stride];
      if (bug != AxisSumBug::NoBarrier) c.sync();  // this stride's sums are done before the next reads them
    }
    c.caption("store: thread 0 writes the row's sum cache[0] to out[%d]", batch);
    if (local_i == 0) out[batch] = cache[0];
  }
};

struct AxisSum {
  static AlgoInfo info() {
    return {"axis-sum", "reductions", "Row sums (axis sum)",
            "Sum of each row of a rows × n matrix: one block per row (blockIdx.y), each thread loads its "
            "elements into shared memory, then a halving-stride tree reduction with a barrier after every "
            "stride.",
            "seed 001 (puzzle 13: axis sum)", Problem{6, 4, 8, DType::Float32}, true, {"kernels/axis_sum.h"},
            kAxisSumBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto a = rt.input();
    auto out = rt.alloc("out", p.rows);
    rt.launch("axis_sum", AxisSumKernel{}, Dim3{1, p.rows}, Dim3{p.tpb}, shared_bytes_for(p.tpb), a, out, p.n,
              kAxisSumBugs.of(p));
    rt.set_output(out, p.rows);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.n);
  }
};

}  // namespace syncscope::kernels
