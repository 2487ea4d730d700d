#include "core/cuda_in/cu_runtime.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace syncscope::cu {

namespace {

// "BUG_NO_BARRIER" -> "no-barrier" (translate/cuda_translator.h's bug_option_name, for the list).
std::string bug_option(std::string macro) {
  if (macro.rfind("BUG_", 0) == 0) macro = macro.substr(4);
  for (char& c : macro) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return macro;
}

}  // namespace

AlgoInfo program_info(const char* name, const char* file, const char* bugs, bool kernels_only) {
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
    if (!macro.empty()) info.bugs.push_back({bug_option(macro), "the file with " + macro + " defined"});
  return info;
}

SimOutcome program_outcome(sim::Simulator& simulator, int status, std::vector<HostCopy> host_copies) {
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
  out.host_copies = std::move(host_copies);
  out.trace = simulator.take_trace();
  return out;
}

}  // namespace syncscope::cu
