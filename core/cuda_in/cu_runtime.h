// What a translated .cu compiles against (translate/cuda_translator.h): the device side
// (cu_device.h, cu_pointer_fields.h), the host side (cu_host.h, cu_host_environment.h), and the program's entry. The loader
// (core/cuda_program.cpp) ends the translation with SYNCSCOPE_CUDA_PROGRAM (after the main() it
// writes for a file that has none) and defines before the file
// SYNCSCOPE_CUDA_NAME (the program's name), SYNCSCOPE_CUDA_BUGS (its BUG_* macros, comma-separated)
// and the BUG_* macro of the variant being built.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/cuda_in/cu_host.h"
#include "core/cuda_in/cu_host_environment.h"
#include "core/cuda_in/cu_pointer_fields.h"
#include "core/registry.h"

namespace syncscope::cu {

// The program's entry in the list (cu_runtime.cpp): its name, file and BUG_* variants
// ("BUG_NO_BARRIER" is listed as no-barrier, as translate/cuda_translator.h's bug_option_name says).
AlgoInfo program_info(const char* name, const char* file, const char* bugs, bool kernels_only);

// What a run of the program leaves (cu_runtime.cpp): main's return value as the output, every
// global array, the copies to the host and the trace. Compiled into syncscope, not into each
// program's library, as program_info is: an edited .cu's compile is what the student waits for.
SimOutcome program_outcome(sim::Simulator& simulator, int status, std::vector<HostCopy> host_copies);

// One run of the program: main() on this thread, each launch simulated as it comes. The result is
// main's return value, expected to be 0. The Device stays in the program's library: it knows the
// program's own __device__ variables (device_variables(), one list per library).
template <class Main>
SimOutcome simulate_program(Main main, const sim::SimOptions& options) {
  sim::Simulator simulator(options);
  Device device(simulator);
  current_device = &device;
  const int status = main();
  std::fflush(stdout);
  current_device = nullptr;
  return program_outcome(simulator, status, std::move(device.host_copies()));
}

}  // namespace syncscope::cu

#define SYNCSCOPE_CUDA_PROGRAM                                                                               \
  extern "C" syncscope::AlgorithmEntry syncscope_kernel_file_entry() {                                            \
    return {syncscope::cu::program_info(SYNCSCOPE_CUDA_NAME, SYNCSCOPE_CUDA_FILE, SYNCSCOPE_CUDA_BUGS, SYNCSCOPE_CUDA_KERNELS_ONLY),           \
            [](const syncscope::Problem&) { return syncscope::CheckResult{}; },                                   \
            [](const syncscope::Problem&, const std::vector<double>&) { return std::vector<double>{0.0}; },       \
            [](const syncscope::Problem&, const std::vector<double>&, const syncscope::sim::SimOptions& options) { \
              return syncscope::cu::simulate_program(                                                             \
                  [] { return syncscope::cu::call_main(&syncscope_cuda_main); }, options);                         \
            },                                                                                                    \
            [](const syncscope::Problem&) { return 0; }};                                                         \
  }                                                                                                               \
  extern "C" void syncscope_kernel_file_twins() {}
