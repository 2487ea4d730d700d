// Runs an algorithm on the real GPU. Plain C++ interface: the CLI and the app call it without
// knowing about CUDA; builds without CUDA link gpu_unavailable.cpp instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/algorithm.h"

namespace syncscope {

struct GpuStatus {
  bool usable = false;
  std::string device;  // "NVIDIA H100 80GB HBM3 (sm_90)"
  std::string reason;  // why not usable, in the driver's words
};

// Asks the driver once and remembers.
const GpuStatus& gpu_status();

struct GpuRun {
  bool ok = false;
  std::string error;   // what went wrong (status reason, or the CUDA error)
  std::vector<uint32_t> output_bits;
  double milliseconds = 0;  // the algorithm's launches, input upload excluded
};

GpuRun run_on_gpu(const std::string& algorithm, const Problem& problem, const std::vector<double>& input);

}  // namespace syncscope
