// The performance lab's two ladders: which algorithms are rungs, in which order, and the block
// size each is timed with on the GPU (`syncscope perf`). The rungs themselves are ordinary
// algorithms of kernels/algorithms.h: they step in the simulator like every other.
#pragma once

#include <array>
#include <string_view>

namespace syncscope {

struct Rung {
  std::string_view ladder;  // "reduce" or "scan"
  std::string_view algorithm;
  int perf_tpb;  // threads per block when timed
};

inline constexpr std::array<Rung, 13> kLadderRungs{{
    {"reduce", "reduce-1-interleaved", 256},
    {"reduce", "reduce-2-strided-index", 256},
    {"reduce", "reduce-3-sequential", 256},
    {"reduce", "reduce-4-add-on-load", 256},
    {"reduce", "reduce-5-unroll-last-warp", 256},
    {"reduce", "reduce-6-complete-unroll", 256},
    {"reduce", "reduce-7-grid-stride", 256},
    {"reduce", "reduce-8-shuffle-vec4", 256},
    {"reduce", "reduce-9-single-pass", 512},
    {"scan", "hierarchical-scan", 512},
    {"scan", "scan-2-brent-kung", 512},
    {"scan", "scan-3-reduce-then-scan", 256},
    {"scan", "scan-4-decoupled-lookback", 512},
}};

}  // namespace syncscope
