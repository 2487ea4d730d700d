// Limits of the simulated machine and of what the simulator accepts. Inputs beyond them get a
// message naming the field, the value and the limit (see kernels/problem.cpp).
#pragma once

#include <cstdint>

namespace syncscope::sim {

inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr int kMaxSharedBytesPerBlock = 48 * 1024;
inline constexpr int kMaxElements = 1 << 24;
// Global thread ids are stored in 25 bits in global memory's shadow (sim/global_shadow.h).
inline constexpr int64_t kMaxThreadsPerLaunch = int64_t{1} << 25;
// A runaway loop's limits are the run's budget: sim/run_budget.h.

}  // namespace syncscope::sim
