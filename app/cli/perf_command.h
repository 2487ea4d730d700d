// `syncscope perf`: the performance lab from the command line (times the ladders on the GPU, or
// shows saved results with --show).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "core/perf.h"

namespace CLI {
class App;
}

namespace syncscope::cli {

struct PerfArgs {
  std::string sizes = "16..28";  // log2 of n
  std::string dtype = "both";
  std::optional<std::string> runs, tpb;
  std::string only;  // comma-separated rung names
  std::string show;  // a saved JSON to print instead of timing
  std::string save;  // where to write the JSON as well
  bool json = false;
};

// Exit code when perf could not time anything (no GPU): neither success nor bad arguments.
inline constexpr int kExitNoGpu = 3;

void add_perf_options(CLI::App& perf, PerfArgs& args);
// `check_only`: the options are checked and nothing is read or timed (the fuzzing target's stage).
int perf_command(const PerfArgs& args, std::ostream& out, std::ostream& err, bool check_only = false);

// The text table: GB/s of every rung and baseline at every size, then the largest size's % of copy
// and of CUB.
void print_perf(std::ostream& out, const PerfReport& report);

}  // namespace syncscope::cli
