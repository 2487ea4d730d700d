#include <cuda_runtime.h>

#include "kernels/algorithms.h"
#include "core/cuda/gpu_dispatch.cuh"
#include "core/cuda/driver_presence.h"
#include "core/cuda/gpu_runner.h"

namespace syncscope {
namespace {

template <class... Algorithm>
GpuRun dispatch(kernels::AlgorithmList<Algorithm...>, const std::string& name, const Problem& p,
                const std::vector<double>& input) {
  GpuRun r;
  r.error = "unknown algorithm '" + name + "'";
  ((Algorithm::info().name == name ? (void)(r = cuda::run_algorithm_on_gpu<Algorithm>(p, input)) : (void)0), ...);
  return r;
}

}  // namespace

const GpuStatus& gpu_status() {
  static const GpuStatus status = [] {
    GpuStatus s;
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
      // Without a driver the runtime says the driver is too old: say what is so instead.
      s.reason = gpu_start_failure(cudaGetErrorString(e), nvidia_driver_present());
      cudaGetLastError();
      return s;
    }
    if (count == 0) {
      s.reason = "no CUDA device found";
      return s;
    }
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
      s.reason = cudaGetErrorString(e);
      return s;
    }
    s.usable = true;
    s.device = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
    return s;
  }();
  return status;
}

GpuRun run_on_gpu(const std::string& algorithm, const Problem& problem, const std::vector<double>& input) {
  if (loaded_kernel_gpu_runner)
    if (std::optional<GpuRun> r = loaded_kernel_gpu_runner(algorithm, problem, input)) return *r;
  return dispatch(kernels::Algorithms{}, algorithm, problem, input);
}

}  // namespace syncscope
