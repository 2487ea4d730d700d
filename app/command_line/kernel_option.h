// --kernel FILE, taken the same way by both entry points (`syncscope run`, `syncscope gui`).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "core/cuda_program.h"
#include "core/kernel_file.h"
#include "core/run.h"

namespace syncscope::command_line {

// The kernel file compiled (or found in the cache) and added to `registry`; the run's algorithm
// defaults to it. When it cannot be used, why goes to `err` (the compiler's first lines under the
// message) and the result is empty: bad arguments (exit code 2).
// `launch`: how to launch a .cu that has no main() (core/cuda_program.h).
std::optional<KernelFile> load_kernel_option(const std::string& path, Registry& registry, RunOptions& options,
                                             std::ostream& err, const ProgramLaunch& launch = {});

}  // namespace syncscope::command_line
