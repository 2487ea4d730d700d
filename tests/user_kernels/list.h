// The test suite's own algorithm list, built exactly like kernels/algorithms.h.
#pragma once

#include "kernels/algorithms.h"
#include "tests/user_kernels/block_max.h"

namespace syncscope::user {

using UserAlgorithms = kernels::AlgorithmList<BlockMax>;

}  // namespace syncscope::user
