// The test suite's own algorithm lists, built exactly like kernels/algorithms.h.
#pragma once

#include <string>
#include <vector>

#include "assets/kernels/atomic_reduce.h"
#include "assets/kernels/brent_kung_scan.h"
#include "assets/kernels/warp_histogram.h"
#include "assets/kernels/warp_vote.h"
#include "kernels/algorithms.h"
#include "core/cuda/gpu_runner.h"
#include "core/registry.h"
#include "tests/user_kernels/active_mask_probe.h"
#include "tests/user_kernels/block_max.h"
#include "tests/user_kernels/divergent.h"
#include "tests/kernel_files/runaway_kernel.h"

namespace syncscope::user {

using UserAlgorithms = kernels::AlgorithmList<BlockMax>;
// Kernels whose lanes diverge inside a barrier interval: SIMT lockstep's validation set.
using HeldOutAlgorithms = kernels::AlgorithmList<BlellochScan, SequentialReduce, InterleavedReduce>;

// The starter kernel files of assets/kernels, compiled in as well: their GPU runs and every
// schedule's results are tested here; tests/kernel_files loads them at run time.
using StarterAlgorithms = kernels::AlgorithmList<my_kernels::AtomicReduce, my_kernels::BrentKungScan, my_kernels::WarpVote,
                                                my_kernels::WarpHistogram>;

// Operations whose result depends on how lanes converge, checked against lockstep's answer.
using ProbeAlgorithms = kernels::AlgorithmList<ActiveMaskProbe>;

// Kernels that never end, each in its own way: the run budget's and the watchdog's test set.
using RunawayAlgorithms = kernels::AlgorithmList<runaway_test::RunawayCopy>;

// Registries of the lists above (their SIMT twins: tests/user_kernels/simt_twins.cpp).
const Registry& user_registry();
const Registry& held_out_registry();
const Registry& starter_registry();
const Registry& probe_registry();
const Registry& runaway_registry();

// Runs one of either list on the GPU (tests/user_kernels/gpu_user_algorithms.cu).
GpuRun run_user_algorithm_on_gpu(const std::string& name, const Problem& p, const std::vector<double>& input);

}  // namespace syncscope::user
