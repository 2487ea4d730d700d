// The race detector. Every cell carries a shadow (sim/memory.h: the last write and the last two
// readers that are different threads, each stamped with its barrier interval); the checker looks at
// each access that leaves the runner's fast path, as Oclgrind's RaceDetector plugin observes its
// core's memory events, and owns what it finds (hazards()) and how each finding is worded
// (sim/describe.h words them for people).
//
// Two accesses of one cell race when they are in the same barrier interval, come from different
// threads, at least one writes, and no __syncwarp() of their warp ordered them. Atomics never race
// with atomics; an atomic and a plain access of one cell do. An atomic is stamped as the cell's
// last write with kAtomicStamp set in `who`, which also keeps it off the runner's fast path. Global memory is
// also checked across blocks: a launch's blocks are unordered, so a cell written by one block and
// touched by another races whatever the interval.
//
// One exception, the compare-and-swap loop of the Programming Guide (atomicMax for floats): a thread
// reads a cell plainly, then atomicCAS-es it with what it read as the expected value, and retries
// when another thread's atomic changed it in between. The plain read against the other threads'
// atomics is a guess the CAS checks, not a race. Such a pair (a plain read, an atomic write) is held
// until the interval ends, and dropped when the reading thread CAS-es that cell in the interval;
// otherwise it is reported then: as a warning where the other access is a compare-and-swap and the
// reader had taken no atomic in the interval before it (a loop whose thread found its value already
// beaten reads and leaves: fine for a maximum that only grows), else as an error (atomicAdd(&sum, v)
// then reading sum without a barrier: a partial total).
// A held read is not marked racy in its event (the step view).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/events.h"
#include "sim/global_shadow.h"
#include "sim/hazards.h"
#include "sim/limits.h"
#include "sim/memory.h"

namespace syncscope::sim {

// BlockRunner::cross_block_order()'s bit for "this block took an atomic on global memory".
inline constexpr uint8_t kBlockTookGlobalAtomic = 2;

class ShadowChecker {
 public:
  static constexpr uint32_t kAtomicStamp = kAtomicWho;  // threads (global ids) stay below 2^25

  // Where the checks happen: the launch's first interval (older stamps are from earlier launches,
  // which a launch boundary ordered), the block and its size.
  // `block_order`: the runner's BlockRunner::cross_block_order(), read when a cross-block race is found.
  void start_block(int launch_index, uint32_t launch_first_interval, int block_linear, int threads_per_block,
                   const uint8_t* block_order = nullptr);
  // A new barrier interval (ids are never reused, so no shadow needs clearing).
  void start_interval(uint32_t interval, int step);
  // The block ends: plain reads held for a CAS that did not come are reported (also at each new interval).
  void finish_block() { report_unchecked_guesses(); }
  // A __syncwarp() completed for `lanes` of `warp` (its mask's lanes): it orders their accesses
  // before it against theirs after it, not those of lanes outside the mask.
  void warp_synced(int warp, uint32_t lanes) {
    std::vector<uint32_t>& syncs = warp_syncs_[warp];
    if (syncs.size() >= UINT16_MAX) return;  // the epoch's limit: later ones order nothing more
    syncs.push_back(lanes);
    ++warp_epoch_[warp];
  }

  // ---- a global cell's shadow, packed (sim/global_shadow.h): unpacked for a check, packed after ----
  struct GlobalCell {
    PackedShadow packed;
    CellShadow shadow;
  };
  GlobalCell load_global(ArrayStore& a, int index, bool concurrent) const {
    GlobalCell c{packed_shadow::load(a.global_shadow[index], concurrent), {}};
    if (!(c.packed.low | c.packed.high)) return c;
    uint64_t bits[3];
    packed_shadow::stamps_of(c.packed, bits);
    const HotStamps::Hot hot = hot_.find(hot_key(a, index));
    AccessStamp* stamps[3] = {&c.shadow.write, &c.shadow.read, &c.shadow.other_read};
    for (int k = 0; k < 3; ++k) {
      // Made in this interval by this block (another block's, in a parallel attempt that is thrown
      // away, may have replaced it since).
      const bool now = (hot.mask >> k & 1) && in_this_block(bits[k] & ((1u << kPackedWhoBits) - 1));
      *stamps[k] = packed_shadow::unpack_stamp(bits[k], now ? interval_ : first_interval_, now ? hot.epoch[k] : 0);
    }
    return c;
  }
  // `changes`: this access stored other bits than the cell held (packed_shadow::kChangedBit).
  void store_global(ArrayStore& a, int index, const PackedShadow& was, const CellShadow& now, bool concurrent,
                    bool changes) {
    PackedShadow packed = packed_shadow::pack(now);
    if (changes || packed_shadow::changed(was)) packed.high |= packed_shadow::kChangedBit;
    packed_shadow::store(a.global_shadow[index], was, packed, concurrent);
    HotStamps::Hot hot;
    const AccessStamp* stamps[3] = {&now.write, &now.read, &now.other_read};
    for (int k = 0; k < 3; ++k)
      if (stamps[k]->interval == interval_) {
        hot.mask |= static_cast<uint8_t>(1 << k);
        hot.epoch[k] = stamps[k]->warp_epoch;
      }
    hot_.put(hot_key(a, index), hot);
  }

  // While a global cell is checked: every write to it in this launch, this access's too, stored the
  // bits it held (a Floyd-Warshall step's `d = min(d, d_ik + d_kj)` on row and column k). Its races
  // cannot change what anyone reads: warnings that say so (HazardEvent::unchanged_cell).
  void checking_unchanged_cell(bool unchanged) { cell_unchanged_ = unchanged; }

  // ---- the runner's fast path: a shared cell no other thread touched in this interval ----
  [[gnu::always_inline]] bool quiet_read(const CellShadow& s, uint32_t me) const {
    return !(s.write.interval == interval_ && s.write.who != me) && (s.read.interval != interval_ || s.read.who == me);
  }
  [[gnu::always_inline]] bool quiet_write(const CellShadow& s, uint32_t me) const {
    return !(s.write.interval == interval_ && s.write.who != me) && !(s.read.interval == interval_ && s.read.who != me) &&
           s.other_read.interval != interval_;
  }
  [[gnu::always_inline]] void stamp_read(CellShadow& s, uint32_t me, LineId line) const {
    s.read = {interval_, me, line, warp_epoch_[me / kWarpSize]};
  }
  [[gnu::always_inline]] void stamp_write(CellShadow& s, uint32_t me, LineId line) const {
    s.write = {interval_, me, line, warp_epoch_[me / kWarpSize]};
  }

  // ---- the general path: every access to a cell in bounds; flags gain kRacy ----
  // `s` is the cell's shadow, or during a parallel attempt a copy of a global cell's (BlockClaims).
  // This access against the cell's last write: a race within this interval, or with another
  // block's write of an earlier one.
  void check_against_write(HazardKind kind, ArrayStore& a, int index, const CellShadow& s, uint32_t who, int thread,
                           LineId line, uint8_t& flags, bool atomic = false) {
    if (races_with(a, s.write, who, thread)) [[unlikely]] {
      report_race(flags, kind, a, index, s.write, thread, line, atomic);
    } else if (s.write.interval != interval_ && from_other_block(a, s.write)) [[unlikely]] {
      report_cross_block_race(flags, kind, a, index, s.write, thread, line, atomic);
    }
  }

  void check_read(ArrayStore& a, int index, CellShadow& s, int thread, LineId line, uint8_t& flags) {
    const uint32_t who = who_for(a, thread);
    check_against_write(HazardKind::ReadAfterWrite, a, index, s, who, thread, line, flags);
    if (is_atomic(s.write) && thread_of(s.write) == who) [[unlikely]] {
      // After this thread's own atomic: another thread's atomic of this interval is a reader slot.
      for (const AccessStamp* r : {&s.read, &s.other_read})
        if (is_atomic(*r) && races_with(a, *r, who, thread)) {
          report_race(flags, HazardKind::ReadAfterWrite, a, index, *r, thread, line, false);
          break;
        }
    }
    const AccessStamp mine{interval_, who, line, warp_epoch_[thread / kWarpSize]};
    if (s.read.interval == interval_ && s.read.who != who) s.other_read = s.read;
    s.read = mine;
  }

  // An atomic read-modify-write: against plain reads and writes only. It is stamped as the cell's
  // last write and as a reader, so a later plain access finds it even after another thread's atomic.
  // A compare-and-swap settles this thread's plain reads of the cell held as guesses (above). One
  // that changes nothing (`stores` false: it found another value, or swaps in the one there) is an
  // atomic read, which plain reads do not race with (a BFS's claim of a vertex another thread is
  // reading, already at this level); a plain write beside it still does.
  void check_atomic(ArrayStore& a, int index, CellShadow& s, int thread, LineId line, uint8_t& flags,
                    bool compare_and_swap = false, bool stores = true) {
    const uint32_t who = who_for(a, thread);
    if (static_cast<size_t>(thread) < atomic_interval_.size()) {
      atomic_interval_[thread] = interval_;
      atomic_cell_[thread] = hot_key(a, index);
    }
    if (compare_and_swap) [[unlikely]] {
      note_cas_line(line);
      if (!guesses_.empty()) checked_by_cas(a, index, who);
      // Its own plain read, checked now, races with no later atomic.
      if (s.other_read.interval == interval_ && s.other_read.who == who) s.other_read = {};
    }
    if (!is_atomic(s.write))
      check_against_write(stores ? HazardKind::WriteAfterWrite : HazardKind::ReadAfterWrite, a, index, s, who, thread, line,
                          flags, true);
    if (stores) check_against_reads(a, index, s, who, thread, line, flags, true);
    const AccessStamp mine{interval_, who | kAtomicStamp, line, warp_epoch_[thread / kWarpSize]};
    // Keep a plain reader of this interval in a slot: it races with every later atomic.
    const bool other_is_plain_reader = s.other_read.interval == interval_ && !is_atomic(s.other_read);
    if (s.read.interval == interval_ && thread_of(s.read) != who && (!is_atomic(s.read) || !other_is_plain_reader))
      s.other_read = s.read;
    s.read = mine;
    if (stores) s.write = mine;
  }

  // same_value: it stores the bits the cell holds (a WAW that changes nothing: HazardLog::benign).
  void check_write(ArrayStore& a, int index, CellShadow& s, int thread, LineId line, uint8_t& flags, bool same_value = false) {
    const uint32_t who = who_for(a, thread);
    writing_same_value_ = same_value;
    check_against_write(HazardKind::WriteAfterWrite, a, index, s, who, thread, line, flags);
    writing_same_value_ = false;
    check_against_reads(a, index, s, who, thread, line, flags, false);
    s.write = {interval_, who, line, warp_epoch_[thread / kWarpSize]};
  }

  // A write (or atomic) against the cell's two latest readers.
  void check_against_reads(ArrayStore& a, int index, const CellShadow& s, uint32_t who, int thread, LineId line,
                           uint8_t& flags, bool atomic) {
    // Of the two latest readers, name one in another warp if there is one: that is the error.
    const AccessStamp* reader = nullptr;
    for (const AccessStamp* r : {&s.read, &s.other_read})
      if (races_with(a, *r, who, thread) && !(atomic && is_atomic(*r)) &&
          (!reader || warp_of_who(a, reader->who) == thread / kWarpSize))
        reader = r;
    if (reader) [[unlikely]] {
      report_race(flags, HazardKind::WriteAfterRead, a, index, *reader, thread, line, atomic);
    } else {
      for (const AccessStamp* r : {&s.read, &s.other_read})
        if (r->interval != interval_ && from_other_block(a, *r) && !(atomic && is_atomic(*r))) [[unlikely]] {
          report_cross_block_race(flags, HazardKind::WriteAfterRead, a, index, *r, thread, line, atomic);
          break;
        }
    }
  }

  // ---- what is not a race but is reported alongside ----
  void out_of_bounds(const ArrayStore& a, int index, int thread, LineId line, bool write);
  void uninitialized_read(const ArrayStore& a, int index, int thread, LineId line);
  // A warp operation `thread` reached at `line` that lane `other_thread` (waiting at other_line, or
  // exited: kNoLine) cannot join.
  void warp_hazard(HazardKind kind, int thread, int other_thread, LineId other_line, LineId line);
  void mask_hazard(MaskProblem problem, uint32_t mask, int thread, int other_thread, LineId other_line, LineId line);
  // `thread` waits at the barrier at `line`; `other` exited (other_line kNoLine) or waits at the
  // barrier at other_line.
  void barrier_divergence(int thread, LineId line, int other, LineId other_line);
  // `thread` waits at the barrier at `line`, where `exited` (which returned at `returned_at`) never comes.
  void exited_before_barrier(int thread, int exited, LineId returned_at, LineId line);

  const HazardLog& hazards() const { return hazards_; }
  bool raced() const { return raced_; }  // a race between threads of this block
  uint32_t interval() const { return interval_; }

 private:
  bool writing_same_value_ = false;  // check_write's, while it checks (race() marks its WAW)
  bool cell_unchanged_ = false;      // while a global cell is checked: see checking_unchanged_cell
  static uint64_t hot_key(const ArrayStore& a, int index) {
    return static_cast<uint64_t>(static_cast<uint32_t>(a.id)) << 32 | static_cast<uint32_t>(index);
  }
  bool in_this_block(uint64_t global_thread) const {
    return static_cast<int64_t>(global_thread) - block_base_ >= 0 &&
           static_cast<int64_t>(global_thread) - block_base_ < threads_per_block_;
  }
  uint32_t who_for(const ArrayStore& a, int thread) const {
    return a.space == MemSpace::Shared ? static_cast<uint32_t>(thread) : static_cast<uint32_t>(block_base_ + thread);
  }
  static bool is_atomic(const AccessStamp& s) { return (s.who & kAtomicStamp) != 0; }
  static uint32_t thread_of(const AccessStamp& s) { return s.who & ~kAtomicStamp; }
  int warp_of_who(const ArrayStore& a, uint32_t who) const {
    who &= ~kAtomicStamp;
    return static_cast<int>(a.space == MemSpace::Shared ? who : who - block_base_) / kWarpSize;
  }
  // Accesses by lanes of one warp separated by a __syncwarp() that both lanes took part in are
  // ordered (usually the latest, a whole warp's: one look). A chain of partial ones is not followed.
  bool ordered(const ArrayStore& a, const AccessStamp& s, int thread) const {
    const int w = thread / kWarpSize;
    if (warp_of_who(a, s.who) != w || s.warp_epoch >= warp_epoch_[w]) return false;
    const uint32_t who = thread_of(s);
    const int64_t in_block = a.space == MemSpace::Shared ? who : static_cast<int64_t>(who) - block_base_;
    const uint32_t both = 1u << (thread % kWarpSize) | 1u << (in_block % kWarpSize);
    const std::vector<uint32_t>& syncs = warp_syncs_[w];
    for (size_t k = warp_epoch_[w]; k-- > s.warp_epoch;)
      if ((syncs[k] & both) == both) return true;
    return false;
  }
  bool from_other_block(const ArrayStore& a, const AccessStamp& s) const {
    return a.space == MemSpace::Global && s.interval >= first_interval_ && s.interval != 0 &&
           static_cast<int64_t>(thread_of(s)) / threads_per_block_ != block_linear_;
  }
  // An access of this interval by another thread that nothing orders before the current one.
  bool races_with(const ArrayStore& a, const AccessStamp& s, uint32_t who, int thread) const {
    return s.interval == interval_ && thread_of(s) != who && !ordered(a, s, thread);
  }

  // An access's first race sets kRacy and whether it is inside one warp; a later race of the same
  // access across warps (or blocks) clears that.
  static uint8_t mark_racy(uint8_t flags, bool in_one_warp) {
    const bool all_in_one_warp = in_one_warp && (!(flags & kRacy) || (flags & kRaceInOneWarp));
    return static_cast<uint8_t>(((flags | kRacy) & ~kRaceInOneWarp) | (all_in_one_warp ? kRaceInOneWarp : 0));
  }

  // A plain read against an atomic write, either way round: whose read it is, held as a guess a CAS
  // may check (-1 when the pair is something else).
  int64_t guessing_reader(HazardKind kind, const ArrayStore& a, const AccessStamp& other, int thread, bool atomic) const {
    if (kind == HazardKind::ReadAfterWrite && !atomic && is_atomic(other)) return who_for(a, thread);
    if (kind == HazardKind::WriteAfterRead && atomic && !is_atomic(other)) return thread_of(other);
    return -1;
  }
  void report_race(uint8_t& flags, HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, int thread,
                   LineId line, bool atomic) {
    if (const int64_t reader = guessing_reader(kind, a, other, thread, atomic); reader >= 0 && held_ < kMaxHeldGuesses) {
      hold_guess(reader, false, a, index, other, thread, line, atomic, kind);
      return;
    }
    flags = mark_racy(flags, race(kind, a, index, other, thread, line, atomic));
  }
  void report_cross_block_race(uint8_t& flags, HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other,
                               int thread, LineId line, bool atomic) {
    if (const int64_t reader = guessing_reader(kind, a, other, thread, atomic); reader >= 0 && held_ < kMaxHeldGuesses) {
      hold_guess(reader, true, a, index, other, thread, line, atomic, kind);
      return;
    }
    cross_block_race(kind, a, index, other, thread, line, atomic);
    flags = mark_racy(flags, false);
  }
  // Out of line, as the race branches that call it are: kept in a header, its map's code would be
  // compiled again into every kernel library (0.04 s of each compile).
  void hold_guess(int64_t reader, bool cross_block, const ArrayStore& a, int index, const AccessStamp& other, int thread,
                  LineId line, bool atomic, HazardKind kind);
  void checked_by_cas(const ArrayStore& a, int index, uint32_t who);
  // Lines where some thread of the process ran an atomicCAS (a loop's compare-and-swap): an unchecked
  // guess is a warning only against those (an atomicAdd's total read too early stays an error).
  static void note_cas_line(LineId line);
  static bool is_cas_line(LineId line);
  void report_unchecked_guesses();

  HazardEvent here(HazardKind kind, Severity severity, const ArrayStore* a, int index, int thread, LineId line) const;
  // True when the two accesses are lanes of one warp (reported as a warning).
  // `unchecked_guess`: a held plain read its thread did not CAS (HazardEvent::read_of_atomics).
  bool race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, int thread, LineId line,
            bool atomic, bool unchecked_guess = false);
  void cross_block_race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, int thread,
                        LineId line, bool atomic, bool unchecked_guess = false);

  uint32_t interval_ = 0;
  int step_ = 0;
  int launch_index_ = 0;
  uint32_t first_interval_ = 0;
  int block_linear_ = 0;
  int64_t block_base_ = 0;  // global thread id of this block's thread 0
  const uint8_t* block_order_ = nullptr;
  int threads_per_block_ = 0;
  std::vector<uint16_t> warp_epoch_;  // __syncwarp()s each warp completed in the current interval
  std::vector<std::vector<uint32_t>> warp_syncs_;  // ... and the lanes each of them took part
  std::vector<uint32_t> atomic_interval_;  // per thread: the interval of its last atomic
  std::vector<uint64_t> atomic_cell_;      // ... and its cell (hot_key)
  HotStamps hot_;                     // global stamps of the current interval (load_global)
  // Plain reads against atomics held for the reader's CAS, by cell (hot_key), for this interval.
  struct Guess {
    int64_t reader;  // who_for() of the thread that read
    bool cross_block;
    bool first_guess;  // the reader's last atomic in the interval was not on this cell (hold_guess)
    const ArrayStore* array;  // the block's or the launch's: alive until the guess is settled
    int index;
    AccessStamp other;
    int thread;
    LineId line;
    bool atomic;
    HazardKind kind;
  };
  static constexpr size_t kMaxHeldGuesses = size_t{1} << 16;  // past it, a pair is reported at once
  std::map<uint64_t, std::vector<Guess>> guesses_;  // ordered: the same report every run
  size_t held_ = 0;
  HazardLog hazards_;
  bool raced_ = false;
};

}  // namespace syncscope::sim
