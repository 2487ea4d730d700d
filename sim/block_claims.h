// Blocks of one launch run in parallel on the worker pool as an *attempt*: every global access
// claims its cell for its block (one tag per cell, stamped with the attempt). A cell written by
// one block and touched by another raises the conflict flag: the blocks were not independent, so
// the parallel result may depend on timing, and the launch rolls back (from the copies of each
// chunk taken before its first write) and runs its blocks in order.
//
// Until the conflict is seen, two blocks may touch one cell at the same moment, so during an
// attempt a global cell's value, poison byte and shadow are read and written with relaxed atomics
// (RelaxedCell). Its shadow is copied, checked and put back field by field: a torn or lost stamp
// can only come from blocks sharing a cell one of them writes, whose attempt is thrown away.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "sim/memory.h"

namespace syncscope::sim {

struct RelaxedCell {
  struct Contents {
    uint32_t bits;
    uint8_t poison;
  };
  // A cell's value and poison byte: relaxed atomics while `concurrent` (a parallel attempt).
  static Contents read(ArrayStore& a, int i, bool concurrent) {
    if (!concurrent) return {a.bits[i], a.poison[i]};
    return {std::atomic_ref<uint32_t>(a.bits[i]).load(std::memory_order_relaxed),
            std::atomic_ref<uint8_t>(a.poison[i]).load(std::memory_order_relaxed)};
  }
  static void write(ArrayStore& a, int i, Contents c, bool concurrent) {
    if (!concurrent) {
      a.bits[i] = c.bits;
      a.poison[i] = c.poison;
      return;
    }
    std::atomic_ref<uint32_t>(a.bits[i]).store(c.bits, std::memory_order_relaxed);
    std::atomic_ref<uint8_t>(a.poison[i]).store(c.poison, std::memory_order_relaxed);
  }
  static CellShadow load_shadow(CellShadow& s) { return {load(s.write), load(s.read), load(s.other_read)}; }
  // Puts back the stamps a check changed (`was` is what load_shadow returned); most change one.
  static void store_shadow(CellShadow& s, const CellShadow& was, const CellShadow& now) {
    if (!same(was.write, now.write)) store(s.write, now.write);
    if (!same(was.read, now.read)) store(s.read, now.read);
    if (!same(was.other_read, now.other_read)) store(s.other_read, now.other_read);
  }

 private:
  template <class T>
  static T relaxed(T& field) { return std::atomic_ref<T>(field).load(std::memory_order_relaxed); }
  template <class T>
  static void relaxed(T& field, T value) { std::atomic_ref<T>(field).store(value, std::memory_order_relaxed); }
  static bool same(const AccessStamp& a, const AccessStamp& b) {
    return a.interval == b.interval && a.who == b.who && a.line == b.line && a.warp_epoch == b.warp_epoch;
  }
  static AccessStamp load(AccessStamp& s) {
    return {relaxed(s.interval), relaxed(s.who), relaxed(s.line), relaxed(s.warp_epoch)};
  }
  static void store(AccessStamp& s, const AccessStamp& v) {
    relaxed(s.interval, v.interval);
    relaxed(s.who, v.who);
    relaxed(s.line, v.line);
    relaxed(s.warp_epoch, v.warp_epoch);
  }
};

class BlockClaims {
 public:
  void start(uint32_t attempt, std::atomic<bool>* conflict) {
    attempt_ = attempt;
    conflict_ = conflict;
  }
  void stop() { attempt_ = 0; }
  bool active() const { return attempt_ != 0; }

  // Tag: attempt (32 bits) | owner block (31 bits) | written (1 bit). The owner is the first block
  // that touched the cell in this attempt, or kSharedReaders once several blocks read it.
  void claim(ArrayStore& a, int index, int block, bool write) {
    std::atomic_ref<uint64_t> tag(a.owner[index]);
    uint64_t cur = tag.load(std::memory_order_acquire);
    const uint32_t me = static_cast<uint32_t>(block);
    for (;;) {
      const bool fresh = static_cast<uint32_t>(cur >> 32) != attempt_;
      const uint32_t owner = fresh ? me : static_cast<uint32_t>(cur >> 1) & kSharedReaders;
      const bool written = !fresh && (cur & 1);
      uint32_t new_owner = owner;
      if (owner != me) {
        if (write || written) conflict_->store(true, std::memory_order_relaxed);
        else new_owner = kSharedReaders;
      }
      const bool new_written = written || write;
      if (!fresh && new_owner == owner && new_written == written) return;
      const uint64_t desired = (uint64_t{attempt_} << 32) | (uint64_t{new_owner} << 1) | (new_written ? 1 : 0);
      if (tag.compare_exchange_weak(cur, desired, std::memory_order_acq_rel, std::memory_order_acquire)) return;
    }
  }

  // Before the first write of this attempt into a chunk, copy the chunk; other writers wait until
  // the copy is complete, so it holds exactly the values from before the launch.
  void back_up_chunk(ArrayStore& a, int index) {
    const size_t chunk = static_cast<size_t>(index) >> ArrayStore::kChunkShift;
    std::atomic_ref<uint32_t> state(a.chunk_state[chunk]);
    const uint32_t copied = (attempt_ << 1) | 1;
    uint32_t cur = state.load(std::memory_order_acquire);
    if (cur == copied) [[likely]] return;
    if ((cur >> 1) != attempt_ && state.compare_exchange_strong(cur, attempt_ << 1, std::memory_order_acq_rel)) {
      const size_t first = chunk << ArrayStore::kChunkShift;
      const size_t count = std::min(a.bits.size() - first, size_t{1} << ArrayStore::kChunkShift);
      for (size_t k = first; k < first + count; ++k) {
        a.backup_bits[k] = std::atomic_ref<uint32_t>(a.bits[k]).load(std::memory_order_relaxed);
        a.backup_poison[k] = std::atomic_ref<uint8_t>(a.poison[k]).load(std::memory_order_relaxed);
      }
      state.store(copied, std::memory_order_release);
      return;
    }
    while (state.load(std::memory_order_acquire) != copied) {
    }
  }

 private:
  static constexpr uint32_t kSharedReaders = 0x7fffffffu;
  uint32_t attempt_ = 0;  // 0: no parallel attempt in progress
  std::atomic<bool>* conflict_ = nullptr;
};

}  // namespace syncscope::sim
