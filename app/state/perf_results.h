// What the Performance panel shows besides the bars' cut: the newest saved `syncscope perf` result
// (this machine's own runs and those shipped in assets/perf/) and what the simulator says about every
// rung of both ladders. Finding the files and simulating ~13 rungs takes long enough to stall a
// frame, so the session does it on a worker (Session::load_perf_results) and the view only reads it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/perf.h"

namespace syncscope::app {

struct LoadedPerf {
  PerfReport report;
  std::string path;
  bool own_run = false;  // from this machine's `syncscope perf` (its cache), not shipped
};

// The newest readable result among `dirs` (by the report's date, then the file name); the
// messages of files that could not be read go to `problems`.
std::optional<LoadedPerf> load_newest_perf(const std::vector<std::string>& dirs, const std::string& own_dir,
                                           std::vector<std::string>* problems);

// What the simulator says about one rung (its defaults, int32, lockstep).
struct RungMetrics {
  double adds_per_element = 0, global_per_element = 0, shared_per_element = 0;
  int launches = 0, steps = 0;
  int worst_bank_conflict = 0;   // n-way, 1 = none
  uint64_t divergent = 0, instructions = 0;  // warp instructions of block 0, all launches
};
using LadderMetrics = std::vector<std::pair<std::string, RungMetrics>>;  // per rung, in ladder order

// Simulates every rung of `ladder` ("reduce" or "scan") at its defaults (int32, lockstep) once.
LadderMetrics simulate_rung_metrics(const std::string& ladder);

struct PerfResultsJob {
  std::vector<std::string> dirs;  // where saved results are looked for, in order
  std::string own_dir;            // the one this machine's runs are saved in
};
struct PerfResults {
  std::optional<LoadedPerf> perf;
  std::vector<std::string> problems;  // files that could not be read
  LadderMetrics reduce, scan;
  const LadderMetrics& metrics(const std::string& ladder) const { return ladder == "scan" ? scan : reduce; }
};
PerfResults gather_perf_results(const PerfResultsJob& job);

}  // namespace syncscope::app
