// Simulated memory: every array, shared or global, is 32-bit cells plus a poison bit per cell
// (never written, or written from a value derived from poison) plus the shadow state the race
// detector keeps per cell.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "contract/dtype.h"
#include "sim/lazy_array.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

enum class MemSpace : uint8_t { Shared, Global };
using syncscope::DType;

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else {
    static_assert(std::is_same_v<T, int32_t>, "syncscope arrays hold float or int32");
    return DType::Int32;
  }
}

std::string_view to_string(DType t);
std::string_view to_string(MemSpace s);

// The last write and the last two reads by different threads of one cell, stamped with the barrier
// interval they happened in. `who` is the thread (block-local for shared memory, global for global
// memory). Two readers are enough to name a true pair: a writer differs from at least one of them.
struct AccessStamp {
  uint32_t interval = 0;  // 0: never
  uint32_t who = 0;
  LineId line = kNoLine;
  uint16_t warp_epoch = 0;  // the warp's __syncwarp count within the interval
};
struct CellShadow {
  AccessStamp write;
  AccessStamp read;        // the latest reader
  AccessStamp other_read;  // the latest reader before it that is another thread
};
// A global cell's CellShadow as it is stored, 16 bytes instead of 36 (sim/global_shadow.h packs
// and unpacks it): per stamp only who and the line; which stamps are from the current interval,
// and their warp epochs, the checker of the block that made them keeps aside.
struct PackedShadow {
  uint64_t low = 0;
  uint64_t high = 0;
};

// Large arrays (global memory of big runs and its shadow) are first touched cell by cell; on 4 KiB
// pages that is one page fault per 4 KiB. Reserving the vector and asking for transparent huge
// pages before filling it cuts the faults 512-fold where the kernel allows it.
void advise_huge_pages(void* data, size_t bytes);
template <class T>
void assign_large(std::vector<T>& v, size_t count, const T& value) {
  if (count * sizeof(T) >= (size_t{4} << 20) && v.capacity() < count) {
    std::vector<T>().swap(v);
    v.reserve(count);
    advise_huge_pages(v.data(), count * sizeof(T));
  }
  v.assign(count, value);
}

// A cell's poison byte: 0 a defined value, else why it is undefined (shown as ?).
inline constexpr uint8_t kNeverWritten = 1;
inline constexpr uint8_t kDerivedFromPoison = 2;  // written with a value computed from poison

struct ArrayStore {
  int id = -1;  // index into Trace::arrays
  MemSpace space = MemSpace::Global;
  DType dtype = DType::Float32;
  // How the program's elements lie in the cells (sim/element_layout.h); null: one cell an element.
  // Static text of the code that declared the array.
  const char* layout = nullptr;
  std::string name;
  int columns = 0;  // a 2D shared array: cells per row (ArrayInfo::columns); 0 for 1D
  int plane_rows = 0;  // a 3D one: rows per plane (ArrayInfo::plane_rows); 0 for 1D and 2D
  std::vector<uint32_t> bits;
  std::vector<uint8_t> poison;
  std::vector<CellShadow> shadow;  // shared arrays (a block's, small)
  // Global arrays: the shadow of the launch in flight, all empty between launches (the launch
  // zeroes it at its end: older stamps never race).
  LazyArray<PackedShadow, Pages::ReadFirst> global_shadow;
  // Global arrays during a parallel launch: which block touched each cell first and whether any
  // block wrote it (see BlockClaims; zero between attempts), and a copy of each chunk of cells
  // taken before the launch first wrote into it, to roll the launch back (none for a chunk never
  // written since it was allocated: it rolls back to that). Allocated on the first parallel launch.
  LazyArray<uint32_t, Pages::ReadFirst> owner;
  static constexpr int kChunkShift = 10;  // 1024 cells
  std::vector<uint64_t> chunk_state;      // (attempt << 2) | never-written << 1 | copied
  LazyArray<uint32_t> backup_bits;
  LazyArray<uint8_t> backup_poison;

  int size() const { return static_cast<int>(bits.size()); }
  void reset(int count, bool poisoned);  // a shared array
};

template <class T>
uint32_t to_bits(T v) { return std::bit_cast<uint32_t>(v); }
template <class T>
T from_bits(uint32_t b) { return std::bit_cast<T>(b); }

// Exact value of a cell as a double (int32 and float32 both convert exactly).
inline double bits_to_double(DType t, uint32_t b) {
  return t == DType::Float32 ? static_cast<double>(std::bit_cast<float>(b))
                             : static_cast<double>(std::bit_cast<int32_t>(b));
}
uint32_t double_to_bits(DType t, double v);

}  // namespace syncscope::sim
