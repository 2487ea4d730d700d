// A starter kernel file: warp votes. Each warp keeps the values above 2 and packs them to the
// front of its 32 cells, in lane order (stream compaction without shared memory or barriers).
// Load it live:  syncscope run --kernel assets/kernels/warp_vote.h --steps
// all() and any() give every lane the same answer, so the branches on them are warp-uniform;
// ballot() gives each lane the warp's whole keep-mask, and the bits below a lane count the kept
// values in front of it.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

#include <algorithm>

namespace my_kernels {

using namespace syncscope;

enum class WarpVoteBug : int { None, FullMaskInBranch, Count };
inline constexpr BugTable<WarpVoteBug, 1> kWarpVoteBugs{
    {{{WarpVoteBug::FullMaskInBranch, "full-mask-in-branch",
       "the kept lanes call ballot_sync(0xffffffff, ...) inside `if (keep)`: the mask names lanes that never get "
       "there (undefined behaviour; on a GPU it can hang)"}}}};
static_assert(kWarpVoteBugs.complete(), "kWarpVoteBugs lists every WarpVoteBug but None, in order");

struct WarpVoteKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n, WarpVoteBug bug) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    const int lane = t % kWarpSize;
    const int warp_start = i - lane;  // the warp's first cell
    const T v = i < n ? T(x[i]) : T(0);
    const bool keep = i < n && v > T(2);

    c.caption("every lane votes: keep x[i] if it is above 2");
    if (c.all(keep)) {  // the whole warp keeps: nothing moves
      if (i < n) y[i] = v;
      return;
    }
    if (!c.any(keep)) {  // nothing to keep: the warp's cells are zeros
      if (i < n) y[i] = T(0);
      return;
    }
    unsigned kept = 0;
    if (bug == WarpVoteBug::FullMaskInBranch) {
      if (keep) kept = c.ballot_sync(0xffffffffu, keep);
    } else {
      kept = c.ballot(keep);  // bit k: lane k keeps its value
    }
    const unsigned below = (1u << lane) - 1;
    const int count = popc(kept);
    // A kept value goes after the kept values of lower lanes; the zeros follow them.
    const int slot = keep ? popc(kept & below) : count + popc(~kept & below);
    if (warp_start + slot < n) y[warp_start + slot] = keep ? v : T(0);
  }
};

struct WarpVote {
  static AlgoInfo info() {
    return {.name = "warp-vote",
            .group = "warp votes",
            .title = "Warp-level stream compaction with ballot, any and all (kernel file)",
            .description = "Each warp keeps its values above 2 and packs them to the front of its cells in lane order: ballot "
                           "gives every lane the warp's keep-mask, and popc of the bits below a lane is its slot. all() and any() "
                           "let a warp that keeps everything, or nothing, skip the work.",
            .origin = "assets/kernels/warp_vote.h (a starter kernel file)",
            .defaults = Problem{.n = 64, .rows = 1, .tpb = 64, .dtype = DType::Int32},
            .sources = {"assets/kernels/warp_vote.h"},
            .bugs = kWarpVoteBugs.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    rt.launch("warp_vote", WarpVoteKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb}, 0, rt.input(), y, p.n,
              kWarpVoteBugs.of(p));
    rt.set_output(y, p.n);
  }
  // Written out sequentially: each warp's section of each block, its kept values, then zeros.
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    std::vector<double> out(input.size(), 0.0);
    for (int block_start = 0; block_start < p.n; block_start += p.tpb)
      for (int w = block_start; w < std::min(block_start + p.tpb, p.n); w += kWarpSize) {
        const int end = std::min({w + kWarpSize, block_start + p.tpb, p.n});
        int slot = w;
        for (int i = w; i < end; ++i)
          if (input[i] > 2) out[slot++] = input[i];
      }
    return out;
  }
};

}  // namespace my_kernels

SYNCSCOPE_KERNEL_FILE(my_kernels::WarpVote)
