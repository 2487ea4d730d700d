// Builds without CUDA: the user kernel's GPU run reports why there is none.
#include "kernels/cuda/gpu_runner.h"

namespace syncscope::user {

GpuRun run_block_max_on_gpu(const Problem&, const std::vector<double>&) {
  GpuRun r;
  r.error = gpu_status().reason;
  return r;
}

}  // namespace syncscope::user
