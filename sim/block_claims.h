// Blocks of one launch run in parallel on the worker pool as an *attempt*: every global access
// claims its cell for its block (one tag per cell, stamped with the attempt). A cell written by
// one block and touched by another raises the conflict flag: the blocks were not independent, so
// the parallel result may depend on timing, and the launch rolls back (from the copies of each
// chunk taken before its first write) and runs its blocks in order.
//
// Until the conflict is seen, two blocks may touch one cell at the same moment, so during an
// attempt a global cell's value, poison byte and shadow are read and written with relaxed atomics
// (RelaxedCell; the shadow's in sim/global_shadow.h). Its shadow is copied, checked and put back
// word by word: a torn or lost stamp can only come from blocks sharing a cell one of them writes,
// whose attempt is thrown away.
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
};

class BlockClaims {
 public:
  void start(uint32_t attempt, std::atomic<bool>* conflict) {
    attempt_ = attempt;
    conflict_ = conflict;
  }
  void stop() { attempt_ = 0; }
  bool active() const { return attempt_ != 0; }

  // Tag: owner (31 bits) | written (1 bit), zero before the attempt's first touch (the simulator
  // zeroes the tags between attempts). The owner is 1 + the first block that touched the cell in
  // this attempt, or kSharedReaders once several blocks read it.
  void claim(ArrayStore& a, int index, int block, bool write) {
    std::atomic_ref<uint32_t> tag(a.owner[index]);
    uint32_t cur = tag.load(std::memory_order_acquire);
    const uint32_t me = static_cast<uint32_t>(block) + 1;  // blocks of a launch stay below 2^25
    for (;;) {
      const bool fresh = cur == 0;
      const uint32_t owner = fresh ? me : cur >> 1;
      const bool written = (cur & 1) != 0;
      uint32_t new_owner = owner;
      if (owner != me) {
        if (write || written) conflict_->store(true, std::memory_order_relaxed);
        else new_owner = kSharedReaders;
      }
      const bool new_written = written || write;
      if (!fresh && new_owner == owner && new_written == written) return;
      const uint32_t desired = (new_owner << 1) | (new_written ? 1 : 0);
      if (tag.compare_exchange_weak(cur, desired, std::memory_order_acq_rel, std::memory_order_acquire)) return;
    }
  }

  // Before the first write of this attempt into a chunk, copy the chunk (or note that nothing ever
  // wrote it: it rolls back to its state from allocation, and needs no copy); other writers wait
  // until that is done, so it holds exactly the values from before the launch.
  void back_up_chunk(ArrayStore& a, int index) {
    const size_t chunk = static_cast<size_t>(index) >> ArrayStore::kChunkShift;
    std::atomic_ref<uint64_t> state(a.chunk_state[chunk]);
    const uint64_t mine = uint64_t{attempt_} << 2;
    uint64_t cur = state.load(std::memory_order_acquire);
    if ((cur & ~kNeverWrittenChunk) == (mine | kCopied)) [[likely]] return;
    if ((cur >> 2) != attempt_ && state.compare_exchange_strong(cur, mine, std::memory_order_acq_rel)) {
      const size_t first = chunk << ArrayStore::kChunkShift;
      const size_t count = std::min(a.bits.size() - first, size_t{1} << ArrayStore::kChunkShift);
      bool never_written = true;
      for (size_t k = first; k < first + count && never_written; ++k)
        never_written = std::atomic_ref<uint8_t>(a.poison[k]).load(std::memory_order_relaxed) == kNeverWritten &&
                        std::atomic_ref<uint32_t>(a.bits[k]).load(std::memory_order_relaxed) == 0;
      for (size_t k = first; k < first + count && !never_written; ++k) {
        a.backup_bits[k] = std::atomic_ref<uint32_t>(a.bits[k]).load(std::memory_order_relaxed);
        a.backup_poison[k] = std::atomic_ref<uint8_t>(a.poison[k]).load(std::memory_order_relaxed);
      }
      state.store(mine | kCopied | (never_written ? kNeverWrittenChunk : 0), std::memory_order_release);
      return;
    }
    while ((state.load(std::memory_order_acquire) & ~kNeverWrittenChunk) != (mine | kCopied)) {
    }
  }
  // chunk_state's flags.
  static constexpr uint64_t kCopied = 1;
  static constexpr uint64_t kNeverWrittenChunk = 2;

 private:
  static constexpr uint32_t kSharedReaders = 0x7fffffffu;
  uint32_t attempt_ = 0;  // 0: no parallel attempt in progress
  std::atomic<bool>* conflict_ = nullptr;
};

}  // namespace syncscope::sim
