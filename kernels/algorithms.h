// The algorithms syncscope ships. To add your own kernel: write one header like kogge_stone.h, then
// include it here and add its type to the list (see kernels/README.md). The simulator registry
// (registry.cpp) and the GPU runner (cuda/gpu_runner.cu) are both built from this one list.
#pragma once

#include "kernels/axis_sum.h"
#include "kernels/block_exclusive_sum.h"
#include "kernels/block_reduce.h"
#include "kernels/hierarchical_scan.h"
#include "kernels/kogge_stone.h"
#include "kernels/reduce_ladder.h"
#include "kernels/scan_ladder.h"
#include "kernels/two_phase_scan.h"

namespace syncscope::kernels {

template <class... Algorithm>
struct AlgorithmList {};

using Algorithms =
    AlgorithmList<KoggeStone, TwoPhaseScan, HierarchicalScan, BlockExclusiveSum, AxisSum, BlockReduce,
                  ReduceInterleavedDivergent, ReduceInterleavedStrided, ReduceSequential, ReduceFirstAddOnLoad,
                  ReduceUnrollLastWarp, ReduceCompleteUnroll, ReduceMultiplePerThread, ReduceShuffleVec4,
                  ReduceSinglePass, ScanBrentKungPadded, ScanReduceThenScan, ScanDecoupledLookback>;

}  // namespace syncscope::kernels
