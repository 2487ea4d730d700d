// Compiled by nvcc: runs one algorithm's host orchestration on CudaRuntime. gpu_runner.cu
// dispatches the product's list through it; a .cu of your own can run any algorithm header.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "kernels/cuda/cuda_runtime.cuh"
#include "kernels/cuda/gpu_runner.h"

namespace syncscope::cuda {

template <class Algorithm>
GpuRun run_algorithm_on_gpu(const Problem& p, const std::vector<double>& input) {
  GpuRun r;
  const GpuStatus& status = gpu_status();
  if (!status.usable) {
    r.error = status.reason;
    return r;
  }
  try {
    auto run_with = [&]<class T>(T) {
      std::vector<T> typed(input.begin(), input.end());
      CudaRuntime<T> rt(typed);
      cudaEvent_t start, stop;
      check(cudaEventCreate(&start), "cudaEventCreate");
      check(cudaEventCreate(&stop), "cudaEventCreate");
      check(cudaEventRecord(start), "cudaEventRecord");
      Algorithm::run(rt, p);
      check(cudaEventRecord(stop), "cudaEventRecord");
      r.output_bits = rt.read_output();
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      r.milliseconds = ms;
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    };
    if (p.dtype == DType::Float32) run_with(float{});
    else run_with(int32_t{});
    r.ok = true;
  } catch (const CudaFailure& e) {
    r.error = e.what();
    cudaGetLastError();  // clear a sticky launch error so the next run can try again
  }
  return r;
}

}  // namespace syncscope::cuda
