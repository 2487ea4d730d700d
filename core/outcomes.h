// The race-condition lab's question: what outputs can this kernel produce? Runs under every
// schedule (and 16 random seeds) in the simulator, or R times on the GPU, grouped by distinct
// output, each with its difference from the CPU reference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/cuda/gpu_runner.h"
#include "core/run.h"

namespace syncscope {

struct Outcome {
  std::vector<uint32_t> bits;
  std::vector<uint8_t> poison;
  std::vector<std::string> schedules;  // simulator: which schedules gave it
  int runs = 0;
  int wrong = 0;         // elements that differ from the reference
  int first_wrong = -1;  // the first of them
  bool match = false;    // as compare_with_reference decides
  // A kernel-only file's arrays after the launch (from the simulator's schedules): its launch
  // succeeds either way, so outputs whose arrays differ are two.
  std::vector<HostCopy> copies;
  std::string differs_from_first;  // how these copies differ from the most frequent output's
};

struct Outcomes {
  std::vector<Outcome> distinct;  // most frequent first
  int runs = 0;
  int correct_runs() const;
  std::string error;         // why the runs stopped: no usable GPU, or the CUDA error of a failed run
  bool unavailable = false;  // error is the GPU's absence, not a run's failure
  // Runs recorded elsewhere (core/recorded_runs.h): "NVIDIA H100 80GB HBM3 (sm_90), 2026-11-26";
  // "" for runs made here. A recording keeps the most frequent outputs; distinct_not_kept counts
  // the others (their runs are in `runs`, not in `distinct`).
  std::string recorded_on;
  int distinct_not_kept = 0;
};

// An out-of-bounds shared-memory access past the block's allocation rounded up to the GPU's
// allocation unit (128 bytes on Hopper): there the GPU faults ("an illegal memory access was
// encountered") instead of returning the sums, as the H100 does for seed 001's as-written axis sum
// from TPB 32 on. Nearer stray reads land in the block's own allocation and go unnoticed (TPB 8).
inline constexpr int kSharedAllocationUnitBytes = 128;
bool faults_on_a_gpu(const sim::Trace& trace);

// Two outcomes' copies to the host, line for line and byte for byte.
bool same_output_copies(const std::vector<HostCopy>& a, const std::vector<HostCopy>& b);

// lockstep, forward, reverse, random:1 .. random:16
std::vector<std::string> lab_schedules();

// Runs `config` under every lab schedule (config's own schedule is ignored); `progress` (may be
// null) counts them, one run each.
Outcomes simulate_all_schedules(const RunConfig& config, Progress* progress = nullptr);

// Runs `config` `runs` times on the GPU; Outcomes::error when there is no usable GPU.
Outcomes gpu_outcomes(const RunConfig& config, const std::vector<double>& input, int runs);
// The same with each run made by `one_run` (a .cu program's main() on the GPU, core/cuda_program_gpu.h);
// the runs stop at the first that fails.
Outcomes gpu_outcomes_of(const RunConfig& config, const std::vector<double>& input, int runs,
                         const std::function<GpuRun()>& one_run);

// Groups runs made elsewhere (the app's GPU child process); stops at the first failed one.
Outcomes tally_gpu_runs(const RunConfig& config, const std::vector<double>& input, const std::vector<GpuRun>& results);

// "correct 200/200 - the bug is hidden at TPB 8" / "30 distinct outputs in 200 runs" /
// "GPU run failed after 0 runs: kernel execution: an illegal memory access was encountered"
std::string gpu_verdict(const Outcomes& o, const RunConfig& config);

}  // namespace syncscope
