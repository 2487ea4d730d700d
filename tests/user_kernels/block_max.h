// A kernel added the way kernels/README.md describes: this one header, plus one line naming it in
// a list of algorithms (user_kernels/list.h). It finds the largest element of each block's section.
#pragma once

#include <algorithm>

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"

namespace syncscope::user {

struct BlockMaxKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array block_max, int n) const {
    using T = value_of<Array>;
    auto best = shared_array<T>(c, c.block_dim().x, "best");
    const int t = c.thread_idx().x;
    const int first = c.block_idx().x * c.block_dim().x;
    // Threads past the end take the section's first element: it cannot win, and it exists.
    best[t] = first + t < n ? T(x[first + t]) : T(x[first]);
    c.sync();
    for (int stride = 1; stride < c.block_dim().x; stride *= 2) {
      T mine = best[t];
      T other = mine;
      if (t % (2 * stride) == 0 && t + stride < c.block_dim().x) other = best[t + stride];
      c.sync();
      if (other > mine) best[t] = other;
      c.sync();
    }
    if (t == 0) block_max[c.block_idx().x] = best[0];
  }
};

struct BlockMax {
  static AlgoInfo info() {
    return {"block-max", "reductions", "Largest element per block (user kernel)",
            "Tree reduction with max instead of +; the example of adding a kernel.", "tests/user_kernels",
            Problem{16, 1, 8, DType::Int32}, false, {"tests/user_kernels/block_max.h"}};
  }
  static CheckResult check(const Problem&) { return {}; }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const int blocks = ceil_div(p.n, p.tpb);
    auto maxima = rt.alloc("block_max", blocks);
    rt.launch("block_max", BlockMaxKernel{}, Dim3{blocks}, Dim3{p.tpb}, shared_bytes_for(p.tpb), rt.input(), maxima, p.n);
    rt.set_output(maxima, blocks);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    std::vector<double> out;
    for (size_t start = 0; start < input.size(); start += p.tpb)
      out.push_back(*std::max_element(input.begin() + start, input.begin() + std::min(input.size(), start + p.tpb)));
    return out;
  }
};

}  // namespace syncscope::user
