// Runs one thread block of a launch: every simulated thread is a fiber (its own stack, see
// context_switch.h), a barrier parks the fiber until the whole block arrives, and the schedule
// decides who runs next.
//
// Two modes:
//   Scheduled  the schedule's exact interleaving; events go to the observers (trace recorder) when
//              the block is being looked at.
//   Fast       each thread runs until it blocks (the `forward` order) with no per-access switching.
//              If the shadow memory sees no race inside the block, every schedule gives this very
//              result (a race-free barrier interval is order-independent), so it stands; otherwise
//              the block's global writes are undone and it runs again Scheduled.
//
// The hot paths (load/store) are inline: the always-on observers (per-thread counters and the
// race detector's shadow memory) are updated right here; optional observers see every event.
#pragma once

#include <boost/context/stack_context.hpp>

#include <atomic>
#include <cstdint>
#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <source_location>
#include <string>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/context_switch.h"
#include "sim/counters.h"
#include "sim/events.h"
#include "sim/hazards.h"
#include "sim/limits.h"
#include "sim/memory.h"
#include "sim/schedule.h"
#include "sim/trace.h"
#include "sim/value.h"

namespace syncscope::sim {

class Simulator;
class SimCtx;
class BlockRunner;

// Sees every event of the blocks it is attached to, in schedule order.
class EventObserver {
 public:
  virtual ~EventObserver() = default;
  virtual void on_event(const Event& e) = 0;
  // The block passed a barrier (barrier == line) or finished (barrier == kNoLine); the first
  // `count` entries of `shared` are the block's shared arrays as they are now.
  virtual void on_step_end(LineId barrier, const std::deque<ArrayStore>& shared, int count) = 0;
};

// One 32-bit cell's content as it travels between a kernel and the runner.
struct CellValue {
  uint32_t bits = 0;
  bool poison = false;
};

// The runner whose SIMT lane is executing kernel code on this OS thread right now, else nullptr.
// The basic-block hook (sim/simt.cpp) acts only while it is set; every runtime entry clears it
// first, so a hook firing in the runtime's own code never parks a lane halfway through it.
inline thread_local BlockRunner* tls_simt_kernel = nullptr;

// Thrown inside a simulated thread to stop its block; the runner reports why.
struct KernelAbort {};

enum class ThreadState : uint8_t { Runnable, AtBarrier, AtWarpOp, Exited, Failed };

struct LaunchState {
  int index = 0;
  Dim3 grid, block;
  int shared_bytes = 0;
  uint32_t first_interval = 0;  // intervals at or after this belong to this launch
  void (*kernel)(void* closure, SimCtx& c) = nullptr;
  void* closure = nullptr;
  // The same kernel instantiated with SimtCtx in an instrumented translation unit (sim/simt.h), or
  // nullptr when none was built: lockstep then aligns lanes by their count of operations.
  void (*simt_kernel)(void* closure, SimCtx& c) = nullptr;
  std::vector<int> shared_array_ids;  // trace ids of this launch's shared arrays, by allocation order
};

class BlockRunner {
 public:
  enum class Mode : uint8_t { Fast, Scheduled };
  struct Outcome {
    bool raced = false;   // a data race between threads of this block
    bool failed = false;  // the block stopped with an error (see error())
  };

  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  Outcome run(Simulator& sim, LaunchState& launch, int block_linear, Mode mode, const Schedule& schedule,
              std::vector<EventObserver*> observers);

  // Runners (and their fibers' stacks) outlive simulations: the app re-simulates on every change.
  static std::unique_ptr<BlockRunner> take_cached();
  static void return_to_cache(std::unique_ptr<BlockRunner> runner);

  std::vector<ThreadCounters> thread_counters() const;
  void add_counters_to(CounterSummary& summary) const {
    for (int t = 0; t < threads_per_block_; ++t) summary.add_thread(threads_[t].counters);
  }
  int steps_taken() const { return step_ + 1; }
  const HazardLog& hazards() const { return hazards_; }
  const std::optional<SimError>& error() const { return error_; }
  void undo_global_writes();

  // While set, every global access claims its cell for this block (one tag per cell, stamped with
  // `attempt`). A cell written by one block and touched by another raises *conflict: blocks of the
  // launch were not independent, so the parallel run's result may depend on timing and the
  // launch must roll back (from the chunk copies taken before the first write into each chunk)
  // and run in order.
  void run_in_parallel_attempt(uint32_t attempt, std::atomic<bool>* conflict) {
    attempt_ = attempt;
    conflict_ = conflict;
  }
  void stop_parallel_attempt() { attempt_ = 0; }

  // ---- the simulated thread's side (called from SimCtx and array references) ----
  Dim3 block_idx() const { return block_idx_; }
  const LaunchState& launch() const { return *launch_; }
  int current_thread() const { return current_; }

  // Fast path: a shared cell, in bounds, initialized, touched by no other thread in this interval,
  // while nothing records events and the schedule does not switch at every access. That is almost
  // every access of a correct kernel; everything else takes the general path.
  template <class T>
  [[gnu::always_inline]] Val<T> load(ArrayStore& a, int index, LineId line) {
    if (fast_accesses_ && a.space == MemSpace::Shared && static_cast<unsigned>(index) < static_cast<unsigned>(a.size())) {
      CellShadow& s = a.shadow[index];
      const uint32_t me = static_cast<uint32_t>(current_);
      if (!a.poison[index] && !(s.write.interval == interval_ && s.write.who != me) &&
          (s.read.interval != interval_ || s.read.who == me)) [[likely]] {
        SimThread& th = *cur_;
        if (++th.accesses > kMaxAccessesPerThread) [[unlikely]] access_budget_exceeded();
        ++th.counters.shared_reads;
        s.read = {interval_, me, line, warp_epoch_[me / kWarpSize]};
        return Val<T>(from_bits<T>(a.bits[index]), false);
      }
    }
    return load_general<T>(a, index, line);
  }

  template <class T>
  [[gnu::always_inline]] void store(ArrayStore& a, int index, Val<T> v, LineId line) {
    if (fast_accesses_ && a.space == MemSpace::Shared && static_cast<unsigned>(index) < static_cast<unsigned>(a.size())) {
      CellShadow& s = a.shadow[index];
      const uint32_t me = static_cast<uint32_t>(current_);
      if (!(s.write.interval == interval_ && s.write.who != me) && !(s.read.interval == interval_ && s.read.who != me) &&
          s.other_read.interval != interval_) [[likely]] {
        SimThread& th = *cur_;
        if (++th.accesses > kMaxAccessesPerThread) [[unlikely]] access_budget_exceeded();
        ++th.counters.shared_writes;
        s.write = {interval_, me, line, warp_epoch_[me / kWarpSize]};
        a.bits[index] = to_bits(v.v);
        a.poison[index] = v.poison ? kDerivedFromPoison : 0;
        return;
      }
    }
    store_general<T>(a, index, v, line);
  }

  template <class T>
  [[gnu::always_inline]] Val<T> load_general(ArrayStore& a, int index, LineId line) {
    const CellValue c = load_bits(a, index, line);
    return Val<T>(from_bits<T>(c.bits), c.poison);
  }
  template <class T>
  [[gnu::always_inline]] void store_general(ArrayStore& a, int index, Val<T> v, LineId line) {
    store_bits(a, index, {to_bits(v.v), v.poison}, line);
  }
  // Every access that is not the fast path: bounds, poison, the race detector, events, schedules.
  [[gnu::noinline]] CellValue load_bits(ArrayStore& a, int index, LineId line);
  [[gnu::noinline]] void store_bits(ArrayStore& a, int index, CellValue v, LineId line);

  // ---- SIMT lockstep (SimtCtx): out of line, and the lane parks before each operation ----
  CellValue simt_load(ArrayStore& a, int index, const std::source_location& site);
  void simt_store(ArrayStore& a, int index, CellValue v, const std::source_location& site);
  void simt_barrier(const std::source_location& site);
  CellValue simt_warp_op(WarpOp op, CellValue v, int arg, const std::source_location& site);
  ArrayStore& simt_shared_array(DType dtype, int count, const char* name);
  // The kernel entered the basic block at `pc` (called by the coverage hook).
  void simt_basic_block(uintptr_t pc);

  [[gnu::always_inline]] void barrier(LineId line) {
    SimThread& th = *cur_;
    ++th.counters.barriers;
    th.state = ThreadState::AtBarrier;
    th.wait_line = line;
    if (at_barrier_++ == 0) barrier_line_ = line;
    else if (line != barrier_line_) barrier_lines_differ_ = true;
    if (recording_) emit({EventKind::Barrier, 0, static_cast<uint16_t>(current_), line, 0, 0, 0, 0});
    block_current();
  }
  void sync_warp(LineId line);

  template <class T>
  Val<T> warp_op(WarpOp op, Val<T> v, int arg, LineId line) {
    const CellValue r = warp_rendezvous(op, to_bits(v.v), v.poison, arg, line);
    return Val<T>(from_bits<T>(r.bits), r.poison);
  }

  ArrayStore& shared_array(DType dtype, int count, const char* name);

  // Poison values: 1 = never written, 2 = written with a value derived from poison.
  static constexpr uint8_t kNeverWritten = 1;
  static constexpr uint8_t kDerivedFromPoison = 2;

 private:
  struct SimThread {
    void* context = nullptr;  // suspended context; nullptr: not started (or abandoned)
    boost::context::stack_context stack{};
    BlockRunner* runner = nullptr;  // for thread_main
    int index = 0;
    ThreadState state = ThreadState::Exited;
    LineId wait_line = kNoLine;
    uint16_t shared_allocs = 0;
    uint32_t accesses = 0;
    ThreadCounters counters;
    // What the last warp operation delivered to this lane.
    uint32_t warp_bits = 0;
    bool warp_poison = false;
    int warp_source = 0;
    bool warp_own = false;
    // SIMT lockstep: where the lane waits. The address of the basic block it last entered (0
    // before the first, or without an instrumented kernel) and how many operations it has
    // started in that block; lanes with equal positions form one warp instruction.
    uintptr_t simt_pc = 0;
    uint32_t simt_op = 0;
  };
  struct WarpRendezvous {
    WarpOp op = WarpOp::None;
    LineId line = kNoLine;
    uint32_t arrived = 0;  // lane mask
    uint32_t exited = 0;   // lanes that finished the kernel
    uint32_t bits[kWarpSize] = {};
    uint8_t poison[kWarpSize] = {};
    int32_t arg[kWarpSize] = {};
  };
  struct UndoEntry {
    ArrayStore* array;
    int index;
    uint32_t bits;
    uint8_t poison;
  };

  // Tag: attempt (32 bits) | owner block (31 bits) | written (1 bit). The owner is the first block
  // that touched the cell in this attempt, or kSharedReaders once several blocks read it.
  static constexpr uint32_t kSharedReaders = 0x7fffffffu;
  void claim(ArrayStore& a, int index, bool write) {
    std::atomic_ref<uint64_t> tag(a.owner[index]);
    uint64_t cur = tag.load(std::memory_order_acquire);
    const uint32_t me = static_cast<uint32_t>(block_linear_);
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

  // --- shadow memory: races between threads of one barrier interval, and across blocks ---
  uint32_t who_for(const ArrayStore& a) const {
    return a.space == MemSpace::Shared ? static_cast<uint32_t>(current_)
                                       : static_cast<uint32_t>(block_base_ + current_);
  }
  int warp_of_who(const ArrayStore& a, uint32_t who) const {
    return static_cast<int>(a.space == MemSpace::Shared ? who : who - block_base_) / kWarpSize;
  }
  // Accesses by lanes of one warp separated by __syncwarp() are ordered.
  bool ordered(const ArrayStore& a, const AccessStamp& s) const {
    const int w = current_ / kWarpSize;
    return warp_of_who(a, s.who) == w && s.warp_epoch < warp_epoch_[w];
  }
  bool from_other_block(const ArrayStore& a, const AccessStamp& s) const {
    return a.space == MemSpace::Global && s.interval >= launch_->first_interval && s.interval != 0 &&
           static_cast<int64_t>(s.who) / threads_per_block_ != block_linear_;
  }
  // An access of this interval by another thread that nothing orders before the current one.
  bool races_with(const ArrayStore& a, const AccessStamp& s, uint32_t who) const {
    return s.interval == interval_ && s.who != who && !ordered(a, s);
  }

  void check_read(ArrayStore& a, int index, LineId line, uint8_t& flags) {
    CellShadow& s = a.shadow[index];
    const uint32_t who = who_for(a);
    if (races_with(a, s.write, who)) [[unlikely]] {
      race(HazardKind::ReadAfterWrite, a, index, s.write, line);
      flags |= kRacy;
    } else if (s.write.interval != interval_ && from_other_block(a, s.write)) [[unlikely]] {
      cross_block_race(HazardKind::ReadAfterWrite, a, index, s.write, line);
      flags |= kRacy;
    }
    const AccessStamp mine{interval_, who, line, warp_epoch_[current_ / kWarpSize]};
    if (s.read.interval == interval_ && s.read.who != who) s.other_read = s.read;
    s.read = mine;
  }

  void check_write(ArrayStore& a, int index, LineId line, uint8_t& flags) {
    CellShadow& s = a.shadow[index];
    const uint32_t who = who_for(a);
    if (races_with(a, s.write, who)) [[unlikely]] {
      race(HazardKind::WriteAfterWrite, a, index, s.write, line);
      flags |= kRacy;
    } else if (s.write.interval != interval_ && from_other_block(a, s.write)) [[unlikely]] {
      cross_block_race(HazardKind::WriteAfterWrite, a, index, s.write, line);
      flags |= kRacy;
    }
    // Of the two latest readers, name one in another warp if there is one: that is the error.
    const AccessStamp* reader = nullptr;
    for (const AccessStamp* r : {&s.read, &s.other_read})
      if (races_with(a, *r, who) && (!reader || warp_of_who(a, reader->who) == current_ / kWarpSize)) reader = r;
    if (reader) [[unlikely]] {
      race(HazardKind::WriteAfterRead, a, index, *reader, line);
      flags |= kRacy;
    } else if (s.read.interval != interval_ && from_other_block(a, s.read)) [[unlikely]] {
      cross_block_race(HazardKind::WriteAfterRead, a, index, s.read, line);
      flags |= kRacy;
    }
    s.write = {interval_, who, line, warp_epoch_[current_ / kWarpSize]};
  }

  void count_access(SimThread& th) {
    if (++th.accesses > kMaxAccessesPerThread) [[unlikely]] access_budget_exceeded();
  }

  HazardEvent hazard_here(HazardKind kind, Severity severity, const ArrayStore* a, int index, LineId line) const;
  void race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, LineId line);
  void cross_block_race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, LineId line);
  void out_of_bounds(const ArrayStore& a, int index, LineId line, bool write);
  void uninitialized_read(const ArrayStore& a, int index, LineId line);
  void warp_hazard(HazardKind kind, int other_thread, LineId other_line, LineId line);
  [[noreturn]] void access_budget_exceeded();
  [[noreturn]] void fail_in_thread(SimErrorKind kind, std::string message, std::vector<LineId> lines);
  void fail(SimErrorKind kind, std::string message, std::vector<LineId> lines);

  void emit(const Event& e) {
    for (EventObserver* o : observers_) o->on_event(e);
  }

  CellValue warp_rendezvous(WarpOp op, uint32_t bits, bool poison, int arg, LineId line);
  void complete_warp_op(int warp);

  // --- scheduling ---
  // Threads hand the CPU straight to the next runnable thread (one context switch per hand-over);
  // the scheduler context only runs when nobody is runnable (barrier release, block end) or a
  // thread failed.
  static constexpr int kScheduler = -1;
  [[gnu::always_inline]] void transfer(int target) {
    void** from = current_ == kScheduler ? &scheduler_context_ : &cur_->context;
    SimThread* to_thread = target == kScheduler ? nullptr : &threads_[target];
    if (to_thread && !to_thread->context) start_thread(target);
    void* to = to_thread ? to_thread->context : scheduler_context_;
    current_ = target;
    cur_ = to_thread;
    tls_running_thread_counters = to_thread ? &to_thread->counters : nullptr;
    switch_context(from, to);
  }
  void yield() {  // after a memory access, in schedules that switch at every access
    const int next = pick();
    if (next != current_) transfer(next >= 0 ? next : kScheduler);
  }
  void block_current() { transfer(next_or_scheduler()); }  // the current thread just stopped being runnable
  int next_or_scheduler() {
    const int next = pick();
    return next >= 0 ? next : kScheduler;
  }
  void start_thread(int t);
  static void thread_main(void* simthread);
  [[noreturn]] void thread_loop(int t);
  void thread_exited(int t);
  [[gnu::always_inline]] int pick() {
    if (forward_order_) {
      while (low_cursor_ < threads_per_block_ && threads_[low_cursor_].state != ThreadState::Runnable) ++low_cursor_;
      return low_cursor_ < threads_per_block_ ? low_cursor_ : -1;
    }
    return pick_by_schedule();
  }
  int pick_by_schedule();
  int pick_simt();
  void simt_park_before_operation() {
    ++cur_->simt_op;
    yield();
  }
  void reset_simt_positions();
  bool all_blocked_resolve();  // false: the block is done (finished or failed)
  void release_barrier();
  void new_interval();
  void end_step(LineId barrier);
  void make_runnable(int t);
  void abandon_fibers();
  std::string describe_threads(const std::vector<int>& threads) const;

  Simulator* sim_ = nullptr;
  LaunchState* launch_ = nullptr;
  int block_linear_ = 0;
  Dim3 block_idx_;
  int threads_per_block_ = 0;
  int64_t block_base_ = 0;  // global thread id of this block's thread 0
  Mode mode_ = Mode::Scheduled;
  Schedule schedule_;
  bool switch_each_access_ = false;  // random: any runnable thread after each access
  bool simt_ = false;                // lockstep: lanes park before each operation (pick_simt)
  bool recording_ = false;       // observers attached
  bool fast_accesses_ = false;   // neither recording nor switching at every access
  bool forward_order_ = false;   // fast mode or the forward schedule
  bool keep_undo_log_ = false;
  std::vector<EventObserver*> observers_;

  std::vector<SimThread> threads_;
  std::vector<WarpRendezvous> warps_;
  std::vector<uint16_t> warp_epoch_;  // __syncwarp()s each warp completed in the current interval
  std::deque<ArrayStore> shared_;  // deque: references stay valid as arrays are added
  int shared_count_ = 0;           // arrays in use by this block
  int shared_bytes_used_ = 0;
  void* scheduler_context_ = nullptr;  // the scheduler's context while a simulated thread runs
  int current_ = kScheduler;
  SimThread* cur_ = nullptr;  // threads_[current_]
  int running_ = 0;  // threads not yet exited
  int at_barrier_ = 0;  // threads waiting at a barrier in this step
  LineId barrier_line_ = kNoLine;  // where the first of them waits
  bool barrier_lines_differ_ = false;
  uint32_t interval_ = 0;
  int step_ = 0;
  bool raced_ = false;
  bool failed_ = false;
  std::optional<SimError> error_;
  HazardLog hazards_;
  std::vector<UndoEntry> undo_;
  uint32_t attempt_ = 0;  // parallel attempt in progress (0: none)
  std::atomic<bool>* conflict_ = nullptr;

  // schedule cursors
  int low_cursor_ = 0;   // forward: no runnable thread below it
  int high_cursor_ = 0;  // reverse: no runnable thread above it
  // lockstep: the warp whose instruction is executing, the lanes at that position, and the next
  // lane of it to run
  int simt_warp_ = 0;
  bool simt_group_open_ = false;
  uintptr_t simt_group_pc_ = 0;
  uint32_t simt_group_op_ = 0;
  int simt_lane_ = 0;
  uint64_t rng_ = 0;
};

}  // namespace syncscope::sim
