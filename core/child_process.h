// Runs another program (a compiler, the translator, a student's program built for the GPU) with
// bounds from the platform: CPU time, address space and no core file as rlimits, a wall-clock
// deadline after which its whole process group is killed, and a cap on what it may print. stdin
// is fed and stdout/stderr drained at once, so no pipe can block either side.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace syncscope {

struct ChildOptions {
  std::string input;                // its stdin (closed once written)
  bool merge_stderr = true;         // stderr into `output`, as a terminal shows them; else `errors`
  std::string working_directory;    // "": this process's
  std::vector<std::pair<std::string, std::string>> environment;  // set on top of this process's
  int cpu_seconds = 300;
  size_t address_space = size_t{8} << 30;  // 0: none; not applied under AddressSanitizer (it reserves terabytes)
  int wall_seconds = 0;                    // 0: no deadline
  size_t max_output = size_t{64} << 20;    // beyond this the child is killed
};

struct ChildResult {
  bool started = false;
  int exit_code = -1;   // -1: it did not exit by itself (a signal, the deadline, too much output)
  int signal = 0;       // the signal that ended it
  bool timed_out = false;
  bool too_much_output = false;
  std::string output;   // stdout (and stderr if merged)
  std::string errors;   // stderr when not merged (at most 1 MiB kept)
  std::string failure;  // why it could not be started
};

ChildResult run_child(const std::vector<std::string>& args, const ChildOptions& options = {});

// "exit status 3", "killed by signal Segmentation fault", "stopped after 60 s": how it ended.
std::string describe_end(const ChildResult& r, const ChildOptions& options);

}  // namespace syncscope
