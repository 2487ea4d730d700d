// BlockRunner's computed atomics (sim/block_runner.h, atomic_update): the atomics on 8-byte values
// and on cells that do not hold the value's type, which a translated .cu program makes
// (core/cuda_in/cu_device.h). A file of its own to keep block_runner.cpp within bounds.
#include <algorithm>

#include "sim/block_runner.h"

namespace syncscope::sim {

std::array<CellValue, 2> BlockRunner::simt_atomic_update(ArrayStore& a, int index, int cells, AtomicOp shown,
                                                         AtomicUpdate update, const void* state,
                                                         const SourceLocation& site) {
  // The runtime's own work, as BlockRunner::outside_kernel does it: no coverage hook parks the lane inside.
  const RuntimeSection runtime = in_runtime();
  tls_simt_kernel = nullptr;
  const std::array<CellValue, 2> old = atomic_update(a, index, cells, shown, update, state, LineTable::intern(site));
  tls_simt_kernel = this;
  return old;
}

std::array<CellValue, 2> BlockRunner::atomic_update(ArrayStore& a, int index, int cells, AtomicOp shown,
                                                    AtomicUpdate update, const void* state, LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  cells = std::clamp(cells, 1, 2);
  // The new value depends on every cell's old bits: look at them first (no access yet; nothing of
  // this block runs before the accesses below, and another block of a parallel attempt writing them
  // too is a conflict that reruns the launch in order).
  uint64_t old = 0;
  bool old_poison = false;
  for (int k = 0; k < cells; ++k) {
    if (static_cast<unsigned>(index + k) >= static_cast<unsigned>(a.size())) continue;
    const RelaxedCell::Contents c = RelaxedCell::read(a, index + k, claims_.active());
    old |= uint64_t{c.bits} << (32 * k);
    old_poison = old_poison || c.poison != 0;
  }
  const uint64_t next = update(old, state);
  const bool exchange = shown == AtomicOp::Exch;
  std::array<CellValue, 2> result{};
  if (cells > 1) begin_wide_access(cells);  // one instruction on a GPU (atom.add.f64), as a double's load is
  for (int k = 0; k < cells; ++k) {
    const uint32_t bits = static_cast<uint32_t>(next >> (32 * k));
    // A compare-and-swap with the bits just seen always swaps: the cell gets `next`'s half.
    result[k] = exchange ? atomic_in_place(a, index + k, AtomicOp::Exch, {bits, false}, {}, line, shown)
                         : atomic_in_place(a, index + k, AtomicOp::Cas, {bits, old_poison},
                                           {static_cast<uint32_t>(old >> (32 * k)), false}, line, shown);
  }
  if (cells > 1) end_wide_access();
  if (switch_each_access_) yield();
  return result;
}

}  // namespace syncscope::sim
