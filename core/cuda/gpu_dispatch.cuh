// Compiled by nvcc: runs one algorithm's host orchestration on CudaRuntime. gpu_runner.cu
// dispatches the product's list through it; a .cu of your own can run any algorithm header.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/cuda/cuda_runtime.cuh"
#include "core/cuda/gpu_run.h"
#include "kernels/algorithm.h"

namespace syncscope::cuda {

struct Event {
  cudaEvent_t event = nullptr;
  Event() { check(cudaEventCreate(&event), "cudaEventCreate"); }
  ~Event() {
    if (event) cudaEventDestroy(event);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

// A launch error (a bad configuration) is cleared by reading it. A fault inside a kernel (an
// illegal address, say a shared-memory read past the array) is sticky: every later CUDA call in
// this process fails, and on the H100 we measured cudaDeviceReset does not bring the device back
// ("busy or unavailable"). So the first fault is remembered and later runs say why they cannot
// run; the app runs its GPU jobs in a child process (app/state/gpu_child.h) for this reason.
inline std::string& lost_context() {
  static std::string first_fault;
  return first_fault;
}

inline void note_failure(const std::string& error) {
  cudaGetLastError();
  if (cudaDeviceSynchronize() != cudaSuccess && lost_context().empty()) lost_context() = error;
}

template <class Algorithm>
GpuRun run_algorithm_on_gpu(const Problem& p, const std::vector<double>& input) {
  GpuRun r;
  const GpuStatus& status = gpu_status();
  if (!status.usable) {
    r.error = status.reason;
    return r;
  }
  if (!lost_context().empty()) {
    r.error = "the GPU is unusable in this process since an earlier kernel faulted (" + lost_context() +
              "); a new process can use it";
    return r;
  }
  try {
    auto run_with = [&]<class T>(T) {
      std::vector<T> typed(input.begin(), input.end());
      CudaRuntime<T> rt(typed);
      Event start, stop;
      check(cudaEventRecord(start.event), "cudaEventRecord");
      Algorithm::run(rt, p);
      check(cudaEventRecord(stop.event), "cudaEventRecord");
      r.output_bits = rt.read_output();
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start.event, stop.event), "cudaEventElapsedTime");
      r.milliseconds = ms;
    };
    if (p.dtype == DType::Float32) run_with(float{});
    else run_with(int32_t{});
    r.ok = true;
  } catch (const CudaFailure& e) {
    r.error = e.what();
    note_failure(r.error);
  }
  return r;
}

}  // namespace syncscope::cuda
