#include "sim/memory_access.h"

#include <cmath>

namespace syncscope::sim {
namespace {

// What an atomic stores, computed on the cell's bits the way the GPU's atom instruction does.
uint32_t atomic_result(DType dtype, AtomicOp op, uint32_t old, uint32_t operand, uint32_t compare) {
  const bool is_float = dtype == DType::Float32;
  switch (op) {
    case AtomicOp::Add:
      if (is_float) {
        // atom.add.f32 rounds to nearest even and flushes subnormal inputs and results to
        // sign-preserving zero (PTX ISA).
        auto flush = [](float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; };
        return to_bits(flush(flush(from_bits<float>(old)) + flush(from_bits<float>(operand))));
      }
      return old + operand;
    case AtomicOp::Min:
    case AtomicOp::Max: {
      // Floats have no atomicMin/Max on the GPU: DeviceCtx runs a CAS loop with these comparisons.
      const bool take = is_float ? (op == AtomicOp::Min ? from_bits<float>(operand) < from_bits<float>(old)
                                                        : from_bits<float>(operand) > from_bits<float>(old))
                                 : (op == AtomicOp::Min ? from_bits<int32_t>(operand) < from_bits<int32_t>(old)
                                                        : from_bits<int32_t>(operand) > from_bits<int32_t>(old));
      return take ? operand : old;
    }
    case AtomicOp::Exch: return operand;
    case AtomicOp::Cas: return old == compare ? operand : old;  // bit for bit, as atomicCAS compares
    case AtomicOp::None: break;
  }
  return old;
}

}  // namespace

void MemoryAccess::undo_global_writes() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    it->array->bits[it->index] = it->bits;
    it->array->poison[it->index] = it->poison;
  }
  undo_.clear();
}

CellAccess MemoryAccess::atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare,
                                int thread, LineId line) {
  CellAccess r;
  r.flags = kAtomic;
  r.old_poison = true;
  if (static_cast<unsigned>(index) >= static_cast<unsigned>(a.size())) [[unlikely]] {
    r.flags |= kOutOfBounds | kValuePoison;
    shadow_.out_of_bounds(a, index, thread, line, true);
    return r;
  }
  const OldCell old = take_old(a, index, r);
  const bool parallel = old.parallel;
  // An exchange stores a value that does not depend on the old one: filling a cell nothing wrote
  // yet is how a block publishes (the old value it returns is still shown as ?).
  if (old.poison == kNeverWritten && op != AtomicOp::Exch) shadow_.uninitialized_read(a, index, thread, line);
  // A compare-and-swap that fails, or swaps in the bits the cell holds (an 8-byte atomic's unchanged
  // half, an atomic load), changes nothing: it reads.
  const bool stores = op != AtomicOp::Cas || (r.old == compare.bits && operand.bits != r.old);
  r.bits = atomic_result(a.dtype, op, r.old, operand.bits, compare.bits);
  with_shadow(a, index, parallel, r.bits != r.old || r.old_poison || operand.poison,
              [&](CellShadow& s) { shadow_.check_atomic(a, index, s, thread, line, r.flags, op == AtomicOp::Cas, stores); });
  bool poison = operand.poison || (op != AtomicOp::Exch && r.old_poison) || (op == AtomicOp::Cas && compare.poison);
  if (op == AtomicOp::Cas && r.bits == r.old && !compare.poison) poison = r.old_poison;
  if (poison) r.flags |= kValuePoison;
  RelaxedCell::write(a, index, {r.bits, static_cast<uint8_t>(poison ? kDerivedFromPoison : 0)}, parallel);
  return r;
}

}  // namespace syncscope::sim
