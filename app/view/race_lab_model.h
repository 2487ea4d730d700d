// Race lab panel: which bug variant runs, what every schedule makes of it (grouped by distinct
// output, each with the elements that differ from the CPU reference), and what R runs on the GPU
// returned ("GPU: correct 200/200 - the bug is hidden at TPB 8").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/outcomes.h"
#include "core/run.h"

namespace syncscope::app {

struct OutcomeView {
  std::string headline;  // "7 runs: 5 of 8 elements wrong, first at 2"
  bool correct = false;
  std::vector<std::string> schedules;                // simulator: which schedules gave it
  std::vector<std::pair<std::string, bool>> values;  // the first elements, and whether each is wrong
  int more_values = 0;                               // elements not listed
};

// The chart: one bar per distinct output across the simulator's schedules and the GPU's runs,
// with how many of each gave it, as a share of the schedules (19) and of the GPU runs (R).
struct OutputBar {
  std::string name;  // "A", "B", ... in order of bars
  bool correct = false;
  int schedule_runs = 0, gpu_runs = 0;
  std::vector<std::string> schedules;  // which schedules gave it
  std::vector<int> wrong;              // indices of the elements that differ from the reference
  std::vector<std::pair<std::string, bool>> values;  // the first elements, and whether each is wrong
  int more_values = 0;
  bool viewed = false;  // the run on screen (its schedule) gave this output
  // A kernel-only file: no reference to be correct against; outputs differ in the arrays the
  // launch left (`differs`: how this one differs from the first, "" for the first).
  bool unchecked = false;
  std::string differs;
};

struct RaceLabModel {
  std::string variant;  // "bug no-second-barrier: read and write of one step overlap ..." / "the correct kernel"
  std::string schedules_status;  // "" (not compared yet), "comparing...", "3 distinct outputs in 19 runs, 12 correct"
  std::vector<OutcomeView> schedules;
  std::string gpu_status;  // "" / "running on the GPU..." / gpu_verdict(...)
  bool gpu_failed = false;  // a run faulted (the as-written axis sum at TPB >= 32 does)
  std::vector<OutcomeView> gpu;
  std::vector<OutputBar> bars;  // correct first, then by runs
  int schedule_runs = 0, gpu_runs = 0;  // the totals the bars are shares of
  std::string gpu_recorded_on;  // the GPU runs were recorded elsewhere: "NVIDIA H100 ... (sm_90), 2026-11-26"
  bool can_run_gpu = true;  // false for a .cu program (the CLI's --gpu-runs runs it)
};

RaceLabModel build_race_lab(const RunResult& run, const Outcomes* schedules, bool schedules_busy, const Outcomes* gpu,
                            bool gpu_busy);

}  // namespace syncscope::app
