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

// Device printf (sim/device_calls.cpp). What the trace keeps of it, per recorded block: a thread's
// line cut at kMaxPrintedChars, at most kMaxPrintedLinesPerStep lines a step (one per thread of the
// largest block) and kMaxPrintedLinesPerBlock in all; the rest is counted, not kept. What reaches
// stdout: at most kMaxPrintedBytesPerLaunch a launch, the size of a GPU's printf buffer
// (cudaLimitPrintfFifoSize's default); the lines past it are counted and said on stderr.
inline constexpr int kMaxPrintedChars = 240;
inline constexpr int kMaxPrintedLinesPerStep = 1024;
inline constexpr int kMaxPrintedLinesPerBlock = 8192;
inline constexpr uint64_t kMaxPrintedBytesPerLaunch = uint64_t{1} << 20;
// A runaway loop's limits are the run's budget: sim/run_budget.h.

}  // namespace syncscope::sim
