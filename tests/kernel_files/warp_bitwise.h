// A kernel file for the bitwise warp reductions (__reduce_and_sync, __reduce_or_sync,
// __reduce_xor_sync): each warp folds 3·int(x[i]) + 1 over its lanes that have an element, the lanes
// with none taking part with the fold's identity, and its lane 0 writes the three results. Loaded
// as a student's file, it checks the reductions against a CPU fold here and against the GPU's
// intrinsics on a device (`syncscope run --kernel ... --gpu`).
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"

#include <cmath>

namespace test_kernels {

using namespace syncscope;

struct WarpBitwiseKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array out, int n) const {
    using T = value_of<Array>;
    const int i = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
    const int v = i < n ? int(T(x[i])) * 3 + 1 : 0;
    const int all = c.reduce_and(i < n ? v : -1);  // -1: every bit set, AND's identity
    const int any = c.reduce_or(v);
    const int odd = c.reduce_xor(v);
    if (c.thread_idx().x % kWarpSize == 0) {
      const int warp = i / kWarpSize;
      out[3 * warp] = T(all);
      out[3 * warp + 1] = T(any);
      out[3 * warp + 2] = T(odd);
    }
  }
};

struct WarpBitwise {
  static AlgoInfo info() {
    return {"warp-bitwise", "warp", "Bitwise warp reductions (kernel file)",
            "Each warp's AND, OR and XOR of 3*int(x)+1 over its lanes with an element.",
            "tests/kernel_files/warp_bitwise.h", Problem{64, 1, 64, DType::Int32}, false,
            {"tests/kernel_files/warp_bitwise.h"}, {}};
  }
  static CheckResult check(const Problem& p) {
    if (p.tpb % kWarpSize == 0) return {};
    return ProblemError{ProblemField::Tpb, "whole warps only (a multiple of 32)"};
  }
  static int warps(const Problem& p) { return ceil_div(p.n, p.tpb) * (p.tpb / kWarpSize); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto out = rt.alloc("folds", 3 * warps(p));
    rt.launch("warp_bitwise", WarpBitwiseKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb}, 0, rt.input(), out, p.n);
    rt.set_output(out, 3 * warps(p));
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    std::vector<double> out(3 * warps(p));
    for (int w = 0; w < warps(p); ++w) {
      int all = -1, any = 0, odd = 0;
      for (int i = w * kWarpSize; i < (w + 1) * kWarpSize && i < p.n; ++i) {
        const int v = static_cast<int>(std::trunc(input[i])) * 3 + 1;
        all &= v, any |= v, odd ^= v;
      }
      out[3 * w] = all, out[3 * w + 1] = any, out[3 * w + 2] = odd;
    }
    return out;
  }
};

}  // namespace test_kernels

SYNCSCOPE_KERNEL_FILE(test_kernels::WarpBitwise)
