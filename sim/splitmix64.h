// The one pseudo-random step the project uses (random inputs, the `random` schedule): tiny, fast, and
// the same sequence on every platform, so a seed reproduces a run anywhere.
#pragma once

#include <cstdint>

namespace syncscope::sim {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace syncscope::sim
