// The value path of one access to a cell, by one simulated thread: bounds, the cell's poison, the
// parallel launch's claims (sim/block_claims.h), the race detector's look at the cell's shadow
// (sim/shadow_checker.h) and the undo log of a fast run. Its checkers are members, called directly:
// no virtual call on an access. It knows nothing of fibers, schedules or events; the block runner
// counts, parks, records and switches around it.
#pragma once

#include <cstdint>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/block_claims.h"
#include "sim/events.h"
#include "sim/memory.h"
#include "sim/shadow_checker.h"

namespace syncscope::sim {

// One 32-bit cell's content as it travels between a kernel and the runner.
struct CellValue {
  uint32_t bits = 0;
  bool poison = false;
};

// What an access saw and did, as its event records it.
struct CellAccess {
  uint8_t flags = 0;   // kOutOfBounds, kValuePoison, kOldPoison, kAtomic (sim/events.h)
  uint32_t old = 0;    // the cell before a write or an atomic
  uint32_t bits = 0;   // what a read got, or what a write or an atomic stored
  bool old_poison = false;
};

class MemoryAccess {
 public:
  MemoryAccess(ShadowChecker& shadow, BlockClaims& claims) : shadow_(shadow), claims_(claims) {}

  // A fast run that another schedule may have to redo keeps what each global write overwrote.
  void start_block(int block_linear, bool keep_undo_log) {
    block_linear_ = block_linear;
    keep_undo_log_ = keep_undo_log;
    undo_.clear();
  }
  void undo_global_writes();

  CellAccess read(ArrayStore& a, int index, int thread, LineId line);
  CellAccess write(ArrayStore& a, int index, CellValue v, int thread, LineId line);
  // One read-modify-write of the cell, computed on its bits the way the GPU's atom instruction does.
  CellAccess atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare, int thread,
                    LineId line);

 private:
  struct UndoEntry {
    ArrayStore* array;
    int index;
    uint32_t bits;
    uint8_t poison;
  };
  // A write's claim on a global cell during a parallel launch; true when the launch runs in parallel.
  bool claim_for_write(ArrayStore& a, int index);
  // The start of a write or an atomic: its claim, the cell's old content into `r` (and the undo
  // log), whether the launch runs in parallel and the old poison byte.
  struct OldCell {
    bool parallel = false;
    uint8_t poison = 0;
  };
  OldCell take_old(ArrayStore& a, int index, CellAccess& r);
  // Runs a shadow check on a shared cell's shadow, or on a global cell's unpacked (read with relaxed
  // atomics during a parallel attempt, where another block may be at the same cell).
  // `changes`: the access stores other bits than the cell holds.
  template <class Check>
  void with_shadow(ArrayStore& a, int index, bool parallel, bool changes, Check&& check) {
    if (a.space == MemSpace::Shared) return check(a.shadow[index]);
    ShadowChecker::GlobalCell cell = shadow_.load_global(a, index, parallel);
    shadow_.checking_unchanged_cell(!changes && !packed_shadow::changed(cell.packed));
    check(cell.shadow);
    shadow_.checking_unchanged_cell(false);
    shadow_.store_global(a, index, cell.packed, cell.shadow, parallel, changes);
  }
  void remember_for_undo(ArrayStore& a, int index, uint32_t bits, uint8_t poison) {
    if (keep_undo_log_ && a.space == MemSpace::Global) undo_.push_back({&a, index, bits, poison});
  }

  ShadowChecker& shadow_;
  BlockClaims& claims_;
  int block_linear_ = 0;
  bool keep_undo_log_ = false;
  std::vector<UndoEntry> undo_;
};

// The paths every non-atomic access takes: inline, so the runner's general path is one function as
// it was before this unit had a file of its own (an out-of-line call here cost global-memory-heavy
// runs about a tenth of their speed).
inline bool MemoryAccess::claim_for_write(ArrayStore& a, int index) {
  const bool parallel = claims_.active();
  if (a.space == MemSpace::Global && parallel) {
    claims_.back_up_chunk(a, index);
    claims_.claim(a, index, block_linear_, true);
  }
  return parallel;
}

inline MemoryAccess::OldCell MemoryAccess::take_old(ArrayStore& a, int index, CellAccess& r) {
  const bool parallel = claim_for_write(a, index);
  const auto [bits, poison] = RelaxedCell::read(a, index, parallel);
  r.old = bits;
  r.old_poison = poison != 0;
  if (poison) r.flags |= kOldPoison;
  remember_for_undo(a, index, bits, poison);
  return {parallel, poison};
}

inline CellAccess MemoryAccess::read(ArrayStore& a, int index, int thread, LineId line) {
  CellAccess r;
  if (static_cast<unsigned>(index) >= static_cast<unsigned>(a.size())) [[unlikely]] {
    r.flags = kOutOfBounds | kValuePoison;
    shadow_.out_of_bounds(a, index, thread, line, false);
    return r;
  }
  const bool parallel = claims_.active();
  if (a.space == MemSpace::Global && parallel) claims_.claim(a, index, block_linear_, false);
  const auto [bits, poison] = RelaxedCell::read(a, index, parallel);
  r.bits = bits;
  if (poison) [[unlikely]] {
    r.flags |= kValuePoison;
    if (poison == kNeverWritten) shadow_.uninitialized_read(a, index, thread, line);
  }
  with_shadow(a, index, parallel, false, [&](CellShadow& s) { shadow_.check_read(a, index, s, thread, line, r.flags); });
  return r;
}

inline CellAccess MemoryAccess::write(ArrayStore& a, int index, CellValue v, int thread, LineId line) {
  CellAccess r;
  r.flags = v.poison ? kValuePoison : 0;
  r.bits = v.bits;
  if (static_cast<unsigned>(index) >= static_cast<unsigned>(a.size())) [[unlikely]] {
    r.flags |= kOutOfBounds;
    shadow_.out_of_bounds(a, index, thread, line, true);
    return r;
  }
  const OldCell old = take_old(a, index, r);
  const bool same_value = !old.poison && !v.poison && r.old == v.bits;
  with_shadow(a, index, old.parallel, !same_value,
              [&](CellShadow& s) { shadow_.check_write(a, index, s, thread, line, r.flags, same_value); });
  RelaxedCell::write(a, index, {v.bits, static_cast<uint8_t>(v.poison ? kDerivedFromPoison : 0)}, old.parallel);
  return r;
}

}  // namespace syncscope::sim
