// Runs an algorithm on the real GPU. Plain C++ interface: the CLI and the app call it without
// knowing about CUDA; builds without CUDA link gpu_unavailable.cpp instead.
#pragma once

#include <cstdint>
#include <optional>
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

// A kernel file loaded at run time (core/kernel_file.h) runs on the GPU through this hook, which
// the loader sets: run_on_gpu hands it every algorithm the build does not have. It answers
// nullopt for a name it does not know either.
using LoadedKernelGpuRunner = std::optional<GpuRun> (*)(const std::string& algorithm, const Problem& problem,
                                                        const std::vector<double>& input);
inline LoadedKernelGpuRunner loaded_kernel_gpu_runner = nullptr;

}  // namespace syncscope
