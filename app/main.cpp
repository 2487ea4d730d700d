#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "app/command_line/config_args.h"
#include "app/state/gpu_child.h"
#include "app/state/record_gpu_runs.h"
#include "core/kernel_file.h"
#include "core/memory_policy.h"
#include "core/worker/worker_main.h"
#ifdef SYNCSCOPE_HAVE_GUI
#include "app/gui_main.h"
#endif

int main(int argc, char** argv) {
  syncscope::keep_freed_memory_for_the_next_run();
  const std::vector<std::string> args(argv + 1, argv + argc);
  // The app's GPU jobs run here, one process each (app/state/gpu_child.h); not for people.
  if (args.size() == 1 && args[0] == "gpu-child") return syncscope::app::gpu_child_main(std::cin, std::cout);
  // Kernel files run here, behind a sandbox (core/worker/worker_main.h); not for people either.
  if (args.size() == 1 && args[0] == "worker") return syncscope::worker::kernel_worker_main();
  // Run by the build once syncscope is linked (CMakeLists.txt): the kernel cache's precompiled
  // headers, made ahead of a first load. A failure is said, not fatal: a first load makes them too.
  if (args.size() == 2 && args[0] == "prepare-kernel-cache") {
    syncscope::prepare_kernel_cache(args[1], std::cerr);
    return 0;
  }
  // The race lab's GPU runs recorded for classes without a GPU (app/state/record_gpu_runs.h).
  if (!args.empty() && args[0] == "gpu-runs") return syncscope::app::record_gpu_runs_main(args, std::cout, std::cerr);
  // `syncscope`, `syncscope --scenario F ...`, `syncscope gui ...` open the app; list/run/--help are the CLI.
  const bool wants_window =
      args.empty() || args[0] == "gui" || (args[0].rfind("--", 0) == 0 && args[0] != "--help" && args[0] != "-h");
#ifdef SYNCSCOPE_HAVE_GUI
  if (wants_window) return syncscope::app::run_gui_command(args, std::cout, std::cerr);
#else
  if (wants_window && !args.empty()) {
    std::cerr << "syncscope: this build has no window (configured with -DSYNCSCOPE_GUI=OFF); "
                 "`syncscope run ALGO --steps` shows a run as text\n";
    return syncscope::command_line::kExitBadArguments;
  }
#endif
  return syncscope::cli::run_cli(args, std::cout, std::cerr);
}
