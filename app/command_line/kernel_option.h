// --kernel FILE, taken the same way by both entry points (`syncscope run`, `syncscope gui`).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/command_line/config_args.h"
#include "core/cuda_program.h"
#include "core/kernel_file.h"
#include "core/run.h"

namespace syncscope::command_line {

// --grid, --block, --kernel-name, --arg as typed: how `run` and `gui` launch a .cu without main().
struct LaunchWords {
  std::string grid, block, kernel_name;
  std::vector<std::string> arguments;  // NAME=VALUE
  std::string shared_bytes;
  // The CLI's options for them, the same in both commands.
  static constexpr const char* kGridHelp =
      "a .cu without main(): the grid to launch its kernel with, X[,Y[,Z]]; --block X[,Y[,Z]] is then its block "
      "size (not a block to follow)";
  static constexpr const char* kKernelNameHelp = "a .cu without main(): which kernel to launch";
  static constexpr const char* kSharedBytesHelp =
      "a .cu without main(): the launch's dynamic shared memory in bytes, for its extern __shared__ array "
      "(<<<grid, block, BYTES>>>; 0 unless given)";
  static constexpr const char* kArgHelp = "a .cu without main(): a scalar parameter's value, NAME=VALUE (others are 0), or a pointer parameter's element count, NAME=COUNT (grid x block unless given); repeatable";
};
// With --grid, --block is the launch's block size (as GPUVerify and the CUDA runtime say it), not a
// block of the trace to follow: taken out of the configuration's words into `words`.
std::optional<std::string> take_launch_block(ConfigArgs& args, LaunchWords& words);
// The words as a ProgramLaunch for `file` (the .cu given); "" or why not.
std::string program_launch(const LaunchWords& words, const std::string& file, ProgramLaunch& launch);

// The kernel file compiled (or found in the cache) and added to `registry`; the run's algorithm
// defaults to it. When it cannot be used, why goes to `err` (the compiler's first lines under the
// message) and the result is empty: bad arguments (exit code 2).
// `launch`: how to launch a .cu that has no main() (core/cuda_program.h).
std::optional<KernelFile> load_kernel_option(const std::string& path, Registry& registry, RunOptions& options,
                                             std::ostream& err, const ProgramLaunch& launch = {});

}  // namespace syncscope::command_line
