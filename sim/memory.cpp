#include "sim/memory.h"

#include <sys/mman.h>

#include <cmath>
#include <cstdint>

namespace syncscope::sim {

std::string_view to_string(DType t) { return t == DType::Float32 ? "float32" : "int32"; }
std::string_view to_string(MemSpace s) { return s == MemSpace::Shared ? "shared" : "global"; }

void ArrayStore::reset(int count, bool poisoned) {
  assign_large(bits, count, uint32_t{0});
  assign_large(poison, count, poisoned ? kNeverWritten : uint8_t{0});
  assign_large(shadow, count, CellShadow{});
}

void advise_huge_pages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice only
#else
  (void)data;
  (void)bytes;
#endif
}

uint32_t double_to_bits(DType t, double v) {
  if (t == DType::Float32) return std::bit_cast<uint32_t>(static_cast<float>(v));
  // Wrap like int32 arithmetic on the GPU.
  const double m = std::fmod(std::nearbyint(v), 4294967296.0);
  const auto u = static_cast<uint64_t>(static_cast<int64_t>(m < 0 ? m + 4294967296.0 : m));
  return static_cast<uint32_t>(u);
}

}  // namespace syncscope::sim
