// Metrics panel: what each thread did, scored like GPU-Puzzles (reads and writes of global and
// shared memory per thread, max and total), barriers, additions, and active threads per step.
#pragma once

#include <string>
#include <vector>

#include "core/run.h"

namespace syncscope::app {

struct MetricRow {
  std::string label;  // "global reads"
  uint64_t max = 0;   // the busiest thread
  uint64_t total = 0;
};

// One line of what the shown block's warps did (lockstep) or of the whole run per input element.
struct MetricFact {
  std::string label;  // "bank-conflicted shared instructions"
  std::string value;  // "12 of 40 (worst 4-way)"
};

struct MetricsModel {
  std::string scope;  // "launch 1/2: prefix_sum_local_phase, 16 threads"
  std::vector<MetricRow> rows;
  // The performance lab's view: the whole run per input element (work, steps, traffic), and the
  // shown block's warp instructions under lockstep (divergence, bank conflicts).
  std::vector<MetricFact> per_element;
  std::string per_element_heading = "whole run, per input element";  // a .cu's: "whole run, per thread"
  std::string warp_scope;  // "block 0, lockstep: 52 warp instructions" or why there are none
  std::vector<MetricFact> warp;
  std::vector<float> active_threads;  // per step, shown block
  int current_step = 0;
  int threads_per_block = 0;
};

MetricsModel build_metrics(const RunResult& run, int launch, int step, int block);

}  // namespace syncscope::app
