// Limits of the simulated machine and of what the simulator accepts. Inputs beyond them get a
// message naming the field, the value and the limit (see kernels/problem.cpp).
#pragma once

#include <cstdint>

namespace syncscope::sim {

inline constexpr int kMaxThreadsPerBlock = 1024;
inline constexpr int kMaxSharedBytesPerBlock = 48 * 1024;
inline constexpr int kMaxElements = 1 << 24;
// A runaway loop must end with an error, not hang the class: barrier intervals per block and launch,
// and memory accesses per thread and launch.
inline constexpr int kMaxStepsPerLaunch = 1 << 16;
inline constexpr uint32_t kMaxAccessesPerThread = 1u << 24;

}  // namespace syncscope::sim
