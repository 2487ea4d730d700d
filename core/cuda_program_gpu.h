// A student's .cu on the real GPU (`syncscope run FILE.cu --gpu`): the very file the simulator ran
// (the same bytes, the same bug variant), compiled by nvcc as it stands, with one header forced in
// before it (nvcc -include) that records every copy to the host; then its main() runs in a child
// process of its own, bounded in time. Its copies to the host, in order, are compared byte for
// byte with the simulator's: that is what "the GPU and the simulator agree" means for a program.
#pragma once

#include <string>
#include <vector>

#include "core/host_copies.h"
#include "core/outcomes.h"
#include "core/registry.h"
#include "core/run.h"

namespace syncscope {

struct ProgramGpuRun {
  bool ran = false;      // main() ended by itself (whatever it returned)
  std::string error;     // why it did not: nvcc's first error, a crash, the deadline
  int main_returned = 0;
  std::vector<HostCopy> host_copies;
  std::string output;    // what the program printed (stdout and stderr)
  double seconds = 0;    // the run, compile excluded
};

// The loaded program named `algorithm` (core/cuda_program.h), variant `bug`, on the GPU.
ProgramGpuRun run_program_on_gpu(const std::string& algorithm, int bug);


// --gpu-runs for a program: `runs` runs of its main() on the GPU, tallied by what main() returned
// (the program's own check: 0 passed), as the race lab tallies an algorithm's outputs.
Outcomes program_gpu_outcomes(const RunConfig& config, const std::vector<double>& input, int runs);

// The header nvcc gets before the program (-include): exposed for the tests.
const char* host_copy_recorder_header();
// A recorder's file ("copy LINE BYTES\n", the bytes, "\n" per copy) read back; false if damaged.
bool parse_host_copies(const std::string& text, std::vector<HostCopy>* copies);

}  // namespace syncscope
