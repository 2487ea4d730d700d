// Hierarchical scan of any length (seed 002's closing paragraph): scan every block's section and
// store each block's total in an extra array S, scan S the same way (recursively, until one block
// holds everything), then add to every block the scanned total of the blocks before it.
#pragma once

#include <string>

#include "kernels/algorithm.h"
#include "contract/kernel_api.h"
#include "kernels/kogge_stone.h"
#include "kernels/reference.h"

namespace syncscope::kernels {

struct ScanBlocksKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, Array block_sums, int n) const {
    auto shared = kogge_stone_scan_block(c, x, y, n);
    const int last = c.block_dim().x - 1;
    if (c.thread_idx().x == last) block_sums[c.block_idx().x] = shared[last];
  }
};

struct AddBlockOffsetsKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array y, Array scanned_block_sums, int n) const {
    c.caption("add: every thread adds the scanned total of the blocks before its own");
    const int i = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
    if (c.block_idx().x > 0 && i < n) y[i] += scanned_block_sums[c.block_idx().x - 1];
  }
};

struct HierarchicalScan {
  static AlgoInfo info() {
    return {"hierarchical-scan", "scans", "Hierarchical (scan-then-add) scan",
            "Scan of any length in 2·levels−1 launches: scan each block and keep its total, scan the totals "
            "the same way (recursively), then add each block's preceding total to its elements.",
            "seed 002 (closing paragraph: the extra array S and two more kernels)",
            Problem{1000, 1, 64, DType::Float32}, false, {"kernels/hierarchical_scan.h", "kernels/kogge_stone.h"}};
  }
  static CheckResult check(const Problem& p) {
    if (p.tpb < 2 && p.n > 1)
      return ProblemError{ProblemField::Tpb,
                          "--tpb 1 cannot shrink the block sums level by level; hierarchical-scan needs --tpb 2 or more",
                          /*names_options=*/true};
    return {};
  }

  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    scan_level(rt, rt.input(), y, p.n, p.tpb, 0);
    rt.set_output(y, p.n);
  }

  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::inclusive_scan(p.dtype, input, 0);
  }

 private:
  template <class Runtime, class Buffer>
  static void scan_level(Runtime& rt, Buffer x, Buffer y, int n, int tpb, int level) {
    const int blocks = ceil_div(n, tpb);
    const std::string l = std::to_string(level);
    auto sums = rt.alloc("block_sums_" + l, blocks);
    rt.launch("scan_blocks (level " + l + ")", ScanBlocksKernel{}, Dim3{blocks}, Dim3{tpb}, shared_bytes_for(tpb),
              x, y, sums, n);
    if (blocks == 1) return;
    auto scanned = rt.alloc("scanned_block_sums_" + l, blocks);
    scan_level(rt, sums, scanned, blocks, tpb, level + 1);
    rt.launch("add_block_offsets (level " + l + ")", AddBlockOffsetsKernel{}, Dim3{blocks}, Dim3{tpb}, 0, y,
              scanned, n);
  }
};

}  // namespace syncscope::kernels
