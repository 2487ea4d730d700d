// __activemask() inside a branch on the lane's parity: under SIMT lockstep (and on the GPU) each
// lane gets the lanes of its warp that took the same side.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"

namespace syncscope::user {

struct ActiveMaskProbeKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n) const {
    using T = value_of<Array>;
    const int i = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
    unsigned m = 0;
    if (c.thread_idx().x % 2 == 0) m = c.active_mask();
    else m = c.active_mask() ^ 0x1u;  // not the same code, so no compiler merges the two sides into one call
    if (i < n) y[i] = T(static_cast<int>(m)) + T(x[i]) * T(0);
  }
};

struct ActiveMaskProbe {
  static AlgoInfo info() {
    return {"active-mask-probe", "probes", "active_mask() in a branch", "", "tests", Problem{64, 1, 64, DType::Int32},
            false, {"tests/user_kernels/active_mask_probe.h"}};
  }
  static CheckResult check(const Problem& p) {
    if (p.dtype == DType::Int32) return {};
    return ProblemError{ProblemField::Dtype, "active-mask-probe writes masks: --dtype int32 only", /*names_options=*/true};
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("masks", p.n);
    rt.launch("active_mask_probe", ActiveMaskProbeKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb}, 0, rt.input(), y,
              p.n);
    rt.set_output(y, p.n);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    std::vector<double> out(input.size());
    for (int i = 0; i < p.n; ++i) {
      const int t = i % p.tpb, lane = t % kWarpSize;
      const int lanes = std::min(kWarpSize, p.tpb - (t - lane));
      unsigned m = 0;
      for (int l = lane % 2; l < lanes; l += 2) m |= 1u << l;
      if (lane % 2) m ^= 1u;
      out[i] = static_cast<double>(static_cast<int32_t>(m));
    }
    return out;
  }
};

}  // namespace syncscope::user
