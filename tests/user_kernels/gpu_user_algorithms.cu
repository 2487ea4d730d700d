// The test suite's own kernels on the GPU: the same headers, dispatched like the product's list.
#include "core/cuda/gpu_dispatch.cuh"
#include "tests/user_kernels/list.h"

namespace syncscope::user {
namespace {

template <template <class...> class List, class... Algorithms>
GpuRun dispatch(List<Algorithms...>, const std::string& name, const Problem& p, const std::vector<double>& input,
                bool& found) {
  GpuRun r;
  ((!found && Algorithms::info().name == name ? (found = true, r = cuda::run_algorithm_on_gpu<Algorithms>(p, input), 0) : 0),
   ...);
  return r;
}

}  // namespace

GpuRun run_user_algorithm_on_gpu(const std::string& name, const Problem& p, const std::vector<double>& input) {
  bool found = false;
  GpuRun r = dispatch(UserAlgorithms{}, name, p, input, found);
  if (!found) r = dispatch(HeldOutAlgorithms{}, name, p, input, found);
  if (!found) r = dispatch(StarterAlgorithms{}, name, p, input, found);
  if (!found) r = dispatch(ProbeAlgorithms{}, name, p, input, found);
  if (!found) r.error = "no test algorithm named " + name;
  return r;
}

}  // namespace syncscope::user
