// What a translated .cu compiles against (translate/cuda_translator.h): the device side
// (cu_device.h), the host side (cu_host.h, cu_host_environment.h), and the program's entry. The loader
// (core/cuda_program.cpp) ends the translation with SYNCSCOPE_CUDA_PROGRAM (after the main() it
// writes for a file that has none) and defines before the file
// SYNCSCOPE_CUDA_NAME (the program's name), SYNCSCOPE_CUDA_BUGS (its BUG_* macros, comma-separated)
// and the BUG_* macro of the variant being built.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "core/cuda_in/cu_host.h"
#include "core/cuda_in/cu_host_environment.h"
#include "core/registry.h"

namespace syncscope::cu {

// "BUG_NO_BARRIER" -> "no-barrier" (translate/cuda_translator.h's bug_option_name, for the list).
inline std::string bug_option(std::string macro) {
  if (macro.rfind("BUG_", 0) == 0) macro = macro.substr(4);
  for (char& c : macro) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return macro;
}

inline AlgoInfo program_info(const char* name, const char* file, const char* bugs, bool kernels_only) {
  AlgoInfo info;
  info.name = name;
  info.group = "your CUDA";
  info.title = std::string(name) + " (your CUDA program)";
  info.description = "Your CUDA program, run unchanged: its main() on the CPU, its kernels in the simulator. "
                     "The result is what main() returns (0: its own check passed).";
  info.origin = file;
  info.defaults = Problem{1, 1, 32, DType::Int32};
  info.program = true;
  info.kernels_only = kernels_only;
  if (kernels_only) {
    info.title = std::string(name) + " (your CUDA kernels)";
    info.description = "Your CUDA kernels, run unchanged: syncscope's main() launches one as --grid and --block "
                       "say, every pointer parameter an array of grid x block elements.";
  }
  info.sources = {file};
  std::istringstream list(bugs);
  for (std::string macro; std::getline(list, macro, ',');)
    if (!macro.empty()) info.bugs.push_back({bug_option(macro), "the file's " + macro + " variant (#ifdef " + macro + ")"});
  return info;
}

// One run of the program: main() on this thread, each launch simulated as it comes. The result is
// main's return value, expected to be 0.
template <class Main>
SimOutcome simulate_program(Main main, const sim::SimOptions& options) {
  sim::Simulator simulator(options);
  Device device(simulator);
  current_device = &device;
  const int status = main();
  std::fflush(stdout);
  current_device = nullptr;
  SimOutcome out;
  const int result = simulator.alloc_global("main() returned", DType::Int32, 1, false);
  simulator.global(result).bits[0] = sim::to_bits(static_cast<int32_t>(status));
  out.output_array = simulator.global(result).id;
  out.output_bits = {simulator.global(result).bits[0]};
  out.output_poison = {0};
  for (int g = 0; g < simulator.global_count(); ++g) {
    sim::ArrayStore& a = simulator.global(g);
    out.globals_final.push_back({a.id, std::move(a.bits), std::move(a.poison)});
  }
  out.host_copies = std::move(device.host_copies());
  out.trace = simulator.take_trace();
  return out;
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
