// Runs an algorithm on the real GPU. Plain C++ interface: the CLI and the app call it without
// knowing about CUDA; builds without CUDA link gpu_unavailable.cpp instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda/gpu_run.h"
#include "kernels/algorithm.h"

namespace syncscope {

GpuRun run_on_gpu(const std::string& algorithm, const Problem& problem, const std::vector<double>& input);

// A kernel file loaded at run time (core/kernel_file.h) runs on the GPU through this hook, which
// the loader sets: run_on_gpu hands it every algorithm the build does not have. It answers
// nullopt for a name it does not know either.
using LoadedKernelGpuRunner = std::optional<GpuRun> (*)(const std::string& algorithm, const Problem& problem,
                                                        const std::vector<double>& input);
inline LoadedKernelGpuRunner loaded_kernel_gpu_runner = nullptr;

}  // namespace syncscope
