// The Performance panel's view-model: saved `syncscope perf` results (the newest of this machine's
// own runs and of those shipped in assets/perf/), cut into bars for one ladder, element type and
// size, the size sweep of every rung, and what the simulator says about each rung (work, traffic,
// steps, bank conflicts, divergence) at its classroom size.
#pragma once

#include <optional>
#include <string>
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

struct PerfBar {
  std::string name;   // the rung's algorithm
  std::string title;  // "Reduction 3: sequential addressing"
  double gbps = 0;
  double of_copy = 0, of_cub = 0;  // fractions
  bool correct = false;
  std::string error;
};

// What the simulator says about one rung (its defaults, int32, lockstep).
struct RungMetrics {
  double adds_per_element = 0, global_per_element = 0, shared_per_element = 0;
  int launches = 0, steps = 0;
  int worst_bank_conflict = 0;   // n-way, 1 = none
  uint64_t divergent = 0, instructions = 0;  // warp instructions of block 0, all launches
};

struct PerfSeries {
  std::string name;
  std::vector<std::pair<int, double>> points;  // (log2 n, GB/s)
};

struct PerformanceModel {
  std::string source;  // "NVIDIA H100 ... · driver ... · 2026-11-23 · saved results (assets/perf/...): no GPU here"
  std::vector<long long> sizes;  // every n with results for this ladder and dtype, ascending
  long long n = 0;
  double copy_gbps = 0, cub_gbps = 0;
  std::vector<PerfBar> bars;
  double max_gbps = 0;  // the bars' and lines' largest, for the scale
  std::vector<PerfSeries> sweep;  // rungs, then "copy" and "cub"
};

// `ladder`: "reduce" or "scan"; n = 0: the largest size.
PerformanceModel build_performance(const LoadedPerf& perf, const std::string& ladder, DType dtype, long long n,
                                   const std::string& gpu_here);

// Simulates every rung of `ladder` at its defaults (int32, lockstep) once.
std::vector<std::pair<std::string, RungMetrics>> simulate_rung_metrics(const std::string& ladder);

}  // namespace syncscope::app
