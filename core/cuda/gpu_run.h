// The GPU as a run sees it, and what one run gives back: plain C++, shared by the runner's interface
// (core/cuda/gpu_runner.h) and the nvcc-compiled dispatch that fills it (core/cuda/gpu_dispatch.cuh).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace syncscope {

struct GpuStatus {
  bool usable = false;
  std::string device;  // "NVIDIA H100 80GB HBM3 (sm_90)"
  std::string reason;  // why not usable, in the driver's words
};

// Asks the driver once and remembers (gpu_runner.cu; gpu_unavailable.cpp in builds without CUDA).
const GpuStatus& gpu_status();

struct GpuRun {
  bool ok = false;
  std::string error;   // what went wrong (status reason, or the CUDA error)
  std::vector<uint32_t> output_bits;
  double milliseconds = 0;  // the algorithm's launches, input upload excluded
};

}  // namespace syncscope
