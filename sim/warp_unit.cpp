#include "sim/warp_unit.h"

#include <algorithm>

namespace syncscope::sim {

void WarpUnit::start_block(int threads_per_block) {
  threads_per_block_ = threads_per_block;
  warps_.assign((threads_per_block + kWarpSize - 1) / kWarpSize, Rendezvous{});
  if (static_cast<int>(results_.size()) < threads_per_block) results_.resize(threads_per_block);  // written before read
}

std::vector<int> WarpUnit::exited_lanes(int warp) const {
  std::vector<int> out;
  for (int l = 0; l < kWarpSize; ++l)
    if (warps_[warp].exited & (1u << l)) out.push_back(warp * kWarpSize + l);
  return out;
}

void WarpUnit::complete(int w) {
  Rendezvous& r = warps_[w];
  const int first = w * kWarpSize;
  const int n = lanes(w);
  for (int lane = 0; lane < n; ++lane) {
    const int arg = r.arg[lane];
    int src = lane;
    bool own = false, undefined = false;
    switch (r.op) {
      case WarpOp::ShflUp:
        src = lane - arg;
        if (arg < 0 || src < 0) src = lane, own = true;
        break;
      case WarpOp::ShflDown:
        src = lane + arg;
        if (arg < 0 || src >= kWarpSize) src = lane, own = true;
        else if (src >= n) undefined = true;  // a lane the block does not have
        break;
      case WarpOp::ShflIdx:
        src = arg & (kWarpSize - 1);
        undefined = src >= n;
        break;
      case WarpOp::ShflXor:
        src = lane ^ (arg & (kWarpSize - 1));
        undefined = src >= n;
        break;
      case WarpOp::SyncWarp:
      case WarpOp::None:
        break;
    }
    results_[first + lane] = {undefined ? 0 : r.bits[src], undefined || r.poison[src] != 0, src, own};
  }
  r.completed = r.op;
  r.arrived = 0;
  r.op = WarpOp::None;
}

}  // namespace syncscope::sim
