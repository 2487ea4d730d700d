// Code panel: the kernel's source as it was compiled (embedded at build time), the line of the
// barrier that ends the current step highlighted, the lines executed in the step marked.
#pragma once

#include <string>
#include <vector>

#include "core/run.h"

namespace syncscope::app {

struct CodeLineView {
  int number = 0;
  std::string text;
  bool barrier = false;   // the barrier that ends the current step
  bool executed = false;  // some thread of the shown block ran a memory access or warp op here
  bool racy = false;      // one side of a race in this step
  bool race_in_one_warp = false;  // ... and every such race there is inside one warp (a warning)
};

struct CodeModel {
  std::vector<std::string> files;  // the algorithm's sources
  int file = 0;                    // the one shown
  std::vector<CodeLineView> lines;
  int focus_line = 0;  // scroll target (the barrier, else the first executed line)
  std::string missing;  // when the source is not embedded
};

// preferred_file: the file the user picked ("" = follow the barrier).
CodeModel build_code_view(const RunResult& run, int launch, int step, int block, const std::string& preferred_file);

}  // namespace syncscope::app
