// The user kernel on the GPU: the same header, dispatched like the product's list.
#include "kernels/cuda/gpu_dispatch.cuh"
#include "tests/user_kernels/block_max.h"

namespace syncscope::user {

GpuRun run_block_max_on_gpu(const Problem& p, const std::vector<double>& input) {
  return cuda::run_algorithm_on_gpu<BlockMax>(p, input);
}

}  // namespace syncscope::user
