// The Performance panel's view-model: saved `syncscope perf` results (found, with the simulator's
// facts about each rung, by the session's worker: app/state/perf_results.h), cut into bars for one
// ladder, element type and size, and the size sweep of every rung.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/state/perf_results.h"
#include "core/perf.h"

namespace syncscope::app {

struct PerfBar {
  std::string name;   // the rung's algorithm
  std::string title;  // "Reduction 3: sequential addressing"
  double gbps = 0;
  double of_copy = 0, of_cub = 0;  // fractions
  bool correct = false;
  std::string error;
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

}  // namespace syncscope::app
