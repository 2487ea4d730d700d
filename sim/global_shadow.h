// Global memory's shadow, 16 bytes a cell (README "Memory"). A CellShadow's stamp is 12 bytes:
// interval, who, line, warp epoch. Of a global cell's stamps, only those of the launch in flight
// can race (the launch zeroes its arrays' shadow when it ends), and the interval and warp epoch
// matter only for a stamp made in the current interval of the block that is checking (an interval
// is one block's). So a global cell stores per stamp who (25 bits of global thread id and the
// atomic flag) and its line, 42 bits; a line of 0 (kNoLine, which no access has) is "no stamp".
// Which of a cell's stamps its block made in the current interval, and their warp epochs, the
// block's checker keeps in HotStamps. Unpacked, a stamp of an earlier interval of this launch gets
// the launch's first interval: it is from this launch and not from the current interval, which is
// all the checker asks of it, so the checks are exactly those of the full cells. The cell's last
// bit says that a write of this launch changed its value (kChangedBit): a race on a cell that every
// write only rewrote with the value it held changes nothing (HazardEvent::unchanged_cell).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "sim/memory.h"

namespace syncscope::sim {

inline constexpr uint32_t kAtomicWho = 1u << 31;  // AccessStamp::who of an atomic (ShadowChecker::kAtomicStamp)
inline constexpr int kPackedWhoBits = 25;         // global thread ids: Simulator refuses launches of more threads

// The stamps a checker made in its block's current interval, by global cell: which of the cell's
// three (bit 0 write, 1 read, 2 other_read) and their warp epochs. An open-addressing table whose
// entries carry their interval: a new interval forgets them all without a pass over the table.
class HotStamps {
 public:
  struct Hot {
    uint8_t mask = 0;
    uint16_t epoch[3] = {};
  };

  void start_interval(uint32_t interval) {
    if (interval <= interval_)  // ids restarted (ArrayPool::restart_ids_if_needed): old entries could match
      for (Entry& e : entries_) e.interval = 0;
    interval_ = interval;
    count_ = 0;
  }
  bool any() const { return count_ != 0; }

  Hot find(uint64_t key) const {
    if (count_ == 0) return {};
    for (size_t i = slot_of(key);; i = (i + 1) & (entries_.size() - 1)) {
      const Entry& e = entries_[i];
      if (e.interval != interval_) return {};
      if (e.key == key) return e.hot;
    }
  }
  void put(uint64_t key, const Hot& hot) {
    if ((count_ + 1) * 2 > entries_.size()) grow();
    for (size_t i = slot_of(key);; i = (i + 1) & (entries_.size() - 1)) {
      Entry& e = entries_[i];
      if (e.interval != interval_) {
        e = {key, interval_, hot};
        ++count_;
        return;
      }
      if (e.key == key) {
        e.hot = hot;
        return;
      }
    }
  }

 private:
  struct Entry {
    uint64_t key = 0;
    uint32_t interval = 0;  // 0: empty (interval ids start at 1)
    Hot hot;
  };
  size_t slot_of(uint64_t key) const {
    return static_cast<size_t>((key * 0x9e3779b97f4a7c15ull) >> 32) & (entries_.size() - 1);
  }
  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(std::max<size_t>(1024, old.size() * 2), Entry{});
    count_ = 0;
    for (const Entry& e : old)
      if (e.interval == interval_) put(e.key, e.hot);
  }

  std::vector<Entry> entries_;
  size_t count_ = 0;
  uint32_t interval_ = 0;
};

namespace packed_shadow {

inline constexpr uint64_t kStampMask = (uint64_t{1} << 42) - 1;
// In PackedShadow::high, above the three stamps (bits 126 and 127 of the cell are free): set by a
// write or an atomic of this launch that stored other bits than the cell held; the launch's end
// zeroes it with the stamps.
inline constexpr uint64_t kChangedBit = uint64_t{1} << 63;

inline uint64_t pack_stamp(const AccessStamp& s) {
  if (s.interval == 0 || s.line == kNoLine) return 0;
  const uint64_t id = s.who & ((1u << kPackedWhoBits) - 1);
  const uint64_t atomic = (s.who & kAtomicWho) ? uint64_t{1} << kPackedWhoBits : 0;
  return id | atomic | (uint64_t{s.line} << (kPackedWhoBits + 1));
}

// `interval` and `epoch`: what the stamp gets when it is there (see the header's comment).
inline AccessStamp unpack_stamp(uint64_t bits, uint32_t interval, uint16_t epoch) {
  if (bits == 0) return {};
  const auto id = static_cast<uint32_t>(bits & ((1u << kPackedWhoBits) - 1));
  const uint32_t atomic = (bits >> kPackedWhoBits) & 1 ? kAtomicWho : 0;
  return {interval, id | atomic, static_cast<LineId>(bits >> (kPackedWhoBits + 1)), epoch};
}

inline PackedShadow pack(const CellShadow& s) {
  const unsigned __int128 v = static_cast<unsigned __int128>(pack_stamp(s.write)) |
                              static_cast<unsigned __int128>(pack_stamp(s.read)) << 42 |
                              static_cast<unsigned __int128>(pack_stamp(s.other_read)) << 84;
  return {static_cast<uint64_t>(v), static_cast<uint64_t>(v >> 64)};
}

// The three stamps' bits: write, read, other_read.
inline void stamps_of(const PackedShadow& p, uint64_t (&out)[3]) {
  const unsigned __int128 v = static_cast<unsigned __int128>(p.high) << 64 | p.low;
  out[0] = static_cast<uint64_t>(v) & kStampMask;
  out[1] = static_cast<uint64_t>(v >> 42) & kStampMask;
  out[2] = static_cast<uint64_t>(v >> 84) & kStampMask;
}
inline bool changed(const PackedShadow& p) { return (p.high & kChangedBit) != 0; }

// During a parallel attempt another block may be at the same cell: relaxed atomics, word by word.
// A torn cell can only come from blocks sharing a cell one of them writes, whose attempt is thrown
// away (sim/block_claims.h).
inline PackedShadow load(PackedShadow& p, bool concurrent) {
  if (!concurrent) return p;
  return {std::atomic_ref<uint64_t>(p.low).load(std::memory_order_relaxed),
          std::atomic_ref<uint64_t>(p.high).load(std::memory_order_relaxed)};
}
inline void store(PackedShadow& p, const PackedShadow& was, const PackedShadow& now, bool concurrent) {
  if (!concurrent) {
    p = now;
    return;
  }
  if (now.low != was.low) std::atomic_ref<uint64_t>(p.low).store(now.low, std::memory_order_relaxed);
  if (now.high != was.high) std::atomic_ref<uint64_t>(p.high).store(now.high, std::memory_order_relaxed);
}

}  // namespace packed_shadow
}  // namespace syncscope::sim
